// Types of scripts/kafka/cluster.mjs (plain Node ESM).

export declare const DEFAULT_NODE_HEAP: string;

export interface ClusterNode {
  /** KRaft node id (1..N). */
  id: number;
  /** Client port on 127.0.0.1. */
  port: number;
  controllerPort: number;
  pid: number;
  dataDir: string;
  running: boolean;
  logFile: string;
}

export interface StartClusterOptions {
  /** First client port (default KAFKA_PORT, else 9092); node i listens on port+i-1, its controller on port+N+i-1. */
  port?: number | string;
  /** Number of combined broker+controller nodes (default 3). */
  nodes?: number;
  version?: string;
  /** JVM heap options of each node (default KAFKA_HEAP_OPTS, else "-Xmx384m -Xms128m"). */
  heap?: string;
  /** How long to wait for every node to answer and register (default 180 000 ms). */
  timeoutMs?: number;
  /** The cluster belongs to this process: once it is gone, a later startCluster() stops it. */
  ownerPid?: number;
  /** broker.session.timeout.ms: how long a silent broker keeps its leaderships (default 4000). */
  sessionTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface RunningCluster {
  port: number;
  version: string;
  clusterId: string;
  /** One bootstrap address per node. */
  brokers: string[];
  /** The same, comma-separated. */
  bootstrap: string;
  nodes: ClusterNode[];
  reused: boolean;
  startMs: number;
  /** Stops every node and removes the data (`keepLog: false`: the logs too). */
  stop(options?: { timeoutMs?: number; keepLog?: boolean }): Promise<{ stopped: boolean }>;
}

export declare function startCluster(options?: StartClusterOptions): Promise<RunningCluster>;
export declare function stopCluster(options?: { port?: number | string; timeoutMs?: number; keepLog?: boolean }): Promise<{ stopped: boolean }>;
export declare function clusterStatus(options?: { port?: number | string }): { running: boolean; port: number; bootstrap?: string; version?: string; nodes: ClusterNode[] };
export declare function nodeLogTail(port: number, id: number, lines?: number): string;
/** SIGKILLs node `id` (its data is kept); resolves once the process is gone. */
export declare function killNode(options: { port: number; id: number }): Promise<{ killed: boolean; pid: number }>;
/** Starts node `id` again on its data; resolves once it answers and is registered. */
export declare function restartNode(options: { port: number; id: number; timeoutMs?: number }): Promise<{ pid: number; restartMs: number }>;
export declare function reapOrphanClusters(options?: { log?: (line: string) => void }): Promise<void>;
export declare function clusterAnswers(brokers: string[]): Promise<boolean>;
