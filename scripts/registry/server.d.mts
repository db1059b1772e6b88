// Types of scripts/registry/server.mjs (used by test/setup/registry-setup.ts).

export declare const DEFAULT_APICURIO_VERSION: string;
export declare const DEFAULT_REGISTRY_PORT: number;
export declare function apicurioVersion(version?: string): string;
export declare function registryPort(port?: number | string): number;
/** `http://127.0.0.1:<port>/apis/ccompat/v7`. */
export declare function ccompatUrl(port: number): string;
export declare function apicurioCached(version?: string): boolean;
export declare function ensureApicurio(version?: string, options?: { log?: (line: string) => void }): Promise<{ dir: string; downloaded: boolean }>;
/** True when GET <url>/subjects answers 2xx. */
export declare function registryAnswers(url: string, options?: { timeoutMs?: number }): Promise<boolean>;
export declare function registryStatus(options?: { port?: number | string }): {
  running: boolean;
  url?: string;
  pid?: number;
  version?: string;
  logFile?: string;
  ownerPid?: number;
};
export declare function stopRegistry(options?: { port?: number | string }): Promise<{ stopped: boolean; how: string }>;

export interface StartRegistryOptions {
  /** Port on 127.0.0.1 (default SCHEMA_REGISTRY_PORT, else 8081). */
  port?: number | string;
  /** Apicurio version (default APICURIO_VERSION, else 2.6.13.Final). */
  version?: string;
  /** JVM heap options (default REGISTRY_HEAP_OPTS, else "-Xmx384m -Xms64m"). */
  heap?: string;
  /** How long to wait for the API to answer (default 120 000 ms). */
  timeoutMs?: number;
  /** The registry belongs to this process: once it is gone, a later start stops it. */
  ownerPid?: number;
  log?: (line: string) => void;
}

export interface RunningRegistry {
  /** The Confluent-compatible base URL (…/apis/ccompat/v7). */
  url: string;
  port: number;
  pid: number;
  version: string;
  logFile: string;
  downloaded: boolean;
  reused: boolean;
  startMs: number;
  stop: () => Promise<{ stopped: boolean; how: string }>;
}

export declare function startRegistry(options?: StartRegistryOptions): Promise<RunningRegistry>;
