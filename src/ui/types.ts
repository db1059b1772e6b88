/**
 * What the live UI shows, as plain JSON, and the data source it reads it from.
 * The UI layer knows no runtime: `src/runtime/ui-source.ts` implements
 * {@link UiDataSource} over a running `KafkaStreams`.
 */

/**
 * TLS of sluice's HTTP servers (the query API, the live UI, the metrics endpoint): a PEM certificate (chain)
 * and its private key; `ca` (query API) is trusted when it calls the other instances.
 */
export interface ServerTls {
  cert: string | Buffer;
  key: string | Buffer;
  /** PEM CA certificate(s) to trust when calling another instance (self-signed deployments). */
  ca?: string | Buffer;
}

/** One node of a sub-topology, from `Topology.describe()`. */
export interface UiTopologyNode {
  readonly type: 'source' | 'processor' | 'sink';
  readonly name: string;
  /** Source: the topics it reads. */
  readonly topics?: readonly string[];
  /** Source subscribed by pattern. */
  readonly topicPattern?: string;
  /** Sink: the topic it writes (null when an extractor chooses it per record). */
  readonly topic?: string | null;
  /** Processor: the state stores it is connected to. */
  readonly stores?: readonly string[];
  readonly successors: readonly string[];
}

/** The structure of the app's topology. */
export interface UiTopology {
  readonly applicationId: string;
  /** Kafka Streams' text layout of `describe()`. */
  readonly text: string;
  readonly subtopologies: ReadonlyArray<{ readonly id: number; readonly nodes: readonly UiTopologyNode[] }>;
  readonly globalStores: ReadonlyArray<{ readonly id: number; readonly source: UiTopologyNode; readonly processor: UiTopologyNode }>;
  /** Topics (as `describe()` names them) that are repartition topics. */
  readonly repartitionTopics: readonly string[];
  /** Changelog topic of each logged store. */
  readonly changelogs: Readonly<Record<string, string>>;
}

/** One answer of an exception handler. */
export interface UiHandlerDecision {
  /** Wall-clock time of the call (ms). */
  readonly at: number;
  readonly slot: 'deserialization' | 'processing' | 'production';
  readonly handler: string;
  readonly taskId: string;
  /** Input record coordinates (-1 / '' in a punctuation). */
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly node: string;
  /** The error's class name (`SerializationError`, `RecordTooLargeError`, ...). */
  readonly errorClass: string;
  /** Its `StreamsError` code and kind, when it has them. */
  readonly errorCode?: string;
  readonly errorKind?: string;
  readonly message: string;
  /** CONTINUE, FAIL, or THREW (the handler threw or answered nonsense). */
  readonly answer: 'CONTINUE' | 'FAIL' | 'THREW';
  readonly deadLetters: number;
}

/** One task of this instance. */
export interface UiTask {
  readonly id: string;
  /** CREATED, RESTORING, RUNNING, FAILED or CLOSED of an active task (standby tasks are not listed here); absent for a task no longer owned. */
  readonly state?: string;
  readonly owned: boolean;
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number; readonly lag: number }>;
  readonly recordsProcessed: number;
  readonly commits: number;
  readonly aborts: number;
  readonly pendingOutputs: number;
}

/** A store restoring now. */
export interface UiRestoration {
  readonly store: string;
  readonly topic: string;
  readonly partition: number;
  readonly restored: number;
  readonly total: number;
}

/** What the page receives about once a second. */
export interface UiSnapshot {
  /** Wall-clock time it was taken (ms). */
  readonly at: number;
  readonly applicationId: string;
  /** This instance (its client id): the owner of the tasks below. */
  readonly instance: string;
  /** The app state (RUNNING, REBALANCING, ...). */
  readonly state: string;
  readonly totals: {
    readonly recordsProcessed: number;
    readonly recordsSkipped: number;
    readonly recordsProduced: number;
    readonly droppedRecords: number;
    readonly deadLettered: number;
    readonly commits: number;
    readonly aborts: number;
    readonly taskRestarts: number;
    readonly rebalances: number;
    readonly consumerLag: number;
  };
  readonly restore: {
    readonly restoredRecords: number;
    readonly remainingRecords: number;
    readonly totalRecords: number;
    readonly rate: number;
    readonly active: readonly UiRestoration[];
  };
  readonly tasks: readonly UiTask[];
  /** Lag per source topic (summed over the owned partitions). */
  readonly topicLag: Readonly<Record<string, number>>;
  /** Records each node received so far, summed over the tasks running now (the page turns it into rates). */
  readonly nodes: Readonly<Record<string, number>>;
  /** The last handler decisions, oldest first. */
  readonly decisions: readonly UiHandlerDecision[];
  /** The async steps by processor name (absent without any): calls in flight, mean call latency and queue time (ms). */
  readonly asyncNodes?: Readonly<Record<string, { readonly inFlight: number; readonly avgLatencyMs: number; readonly avgQueueMs: number; readonly failed: number }>>;
}

/** Where the UI server reads from; every method must be cheap (called about once a second). */
export interface UiDataSource {
  topology(): UiTopology;
  snapshot(): UiSnapshot;
}

/** Options of `app.serveUi()`. */
export interface UiServerOptions {
  /** Port to listen on (0 picks a free one). */
  port: number;
  /** Interface to bind (default `127.0.0.1`: local only; `0.0.0.0` to expose it). */
  host?: string;
  /** Milliseconds between two snapshots on `/events`: a whole number from 50 to 2147483647 (default 1000). */
  intervalMs?: number;
  /**
   * Host names (besides the bound address, `localhost`, `127.0.0.1` and `::1`) the UI answers to, e.g. the
   * name of a reverse proxy. A request whose `Host` is none of them gets 421, one with a foreign `Origin` 403
   * (against DNS rebinding: a web page the operator visits must not read the UI).
   */
  allowedHosts?: readonly string[];
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: ServerTls;
  /**
   * Require this token on every request: `Authorization: Bearer <token>`, or HTTP Basic with the token as
   * password (a browser asks for it). Without it a request gets 401 and nothing else.
   */
  token?: string;
  /** Most open `/events` streams at once (default 16); one more gets 503. */
  maxClients?: number;
}

/** A running UI server. */
export interface UiServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  /** The bound host. */
  readonly host: string;
  /** `http://host:port/`. */
  readonly url: string;
  /** Stops listening and ends every open event stream; idempotent. */
  close(): Promise<void>;
}
