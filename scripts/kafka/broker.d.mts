// Types of scripts/kafka/broker.mjs (plain Node ESM, used by test/setup/global-setup.ts).

export declare const DEFAULT_KAFKA_VERSION: string;
export declare const DEFAULT_KAFKA_PORT: number;

import type { SecureBrokerInfo } from './secure.mjs';
export type { SecureBrokerInfo };

/** A local broker cannot be fetched or started; the message says what to do. */
export declare class KafkaSetupError extends Error {}

export interface StartBrokerOptions {
  /** Client port on 127.0.0.1 (default KAFKA_PORT, else 9092; secure: KAFKA_SECURE_PORT, else 9093). */
  port?: number | string;
  /** Controller port (default KAFKA_CONTROLLER_PORT, else a free port). */
  controllerPort?: number;
  /** Kafka version (default KAFKA_VERSION, else the pinned one). */
  version?: string;
  /** JVM heap options (default KAFKA_HEAP_OPTS, else "-Xmx1g -Xms256m"; secure: "-Xmx512m -Xms128m"). */
  heap?: string;
  /** The SASL_SSL + mTLS broker with ACLs (scripts/kafka/secure.mjs) instead of the plaintext one. */
  secure?: boolean;
  /** Port of the secure broker's mTLS listener (default: port + 1 when free, else any free port). */
  mtlsPort?: number;
  /** How long to wait for the broker to answer (default 90 000 ms). */
  timeoutMs?: number;
  /** The broker belongs to this process: once it is gone, a later startBroker() stops the broker. */
  ownerPid?: number;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface RunningBroker {
  bootstrap: string;
  port: number;
  pid: number;
  version: string;
  logFile: string;
  dataDir: string;
  /** True when the jars were fetched by this call. */
  downloaded: boolean;
  /** True when a broker started earlier on this port was reused. */
  reused: boolean;
  /** Wall time of the call. */
  startMs: number;
  /** When the broker first answered a metadata request (before the coordinator warm-up); 0 when reused. */
  answeringMs?: number;
  /** Connection details of a secure broker (undefined for the plaintext one). */
  secure?: SecureBrokerInfo;
  /** Stops this broker and removes its data directory (`keepLog: false`: its log too). */
  stop(options?: { timeoutMs?: number; keepLog?: boolean }): Promise<{ stopped: boolean; how: string }>;
}

export declare function kafkaVersion(version?: string): string;
export declare function kafkaPort(port?: number | string, options?: { secure?: boolean }): number;
export declare function jarsCached(version: string): boolean;
export declare function logTail(port: number, lines?: number): string;
export declare function brokerStatus(options?: { port?: number | string; secure?: boolean }): {
  running: boolean;
  pid?: number;
  bootstrap?: string;
  version?: string;
  dataDir?: string;
  logFile: string;
  secure?: SecureBrokerInfo;
};
export declare function startBroker(options?: StartBrokerOptions): Promise<RunningBroker>;
export declare function stopBroker(options?: { port?: number | string; timeoutMs?: number; keepLog?: boolean }): Promise<{ stopped: boolean; how: string }>;
export declare function reapOrphans(options?: { log?: (line: string) => void }): Promise<void>;
export declare function clusterAnswers(brokers: string[]): Promise<boolean>;
/** Restarts the broker on `port` keeping its data (SIGTERM, or SIGKILL with `kill: true`). */
export declare function restartBroker(options?: { port?: number | string; kill?: boolean; timeoutMs?: number; heap?: string }): Promise<{ bootstrap: string; pid: number; restartMs: number }>;
