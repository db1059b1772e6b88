/**
 * The app of the HA scenarios and its instrumentation, shared by the child
 * worker (test/integration/fixtures/ha-worker.ts) and the in-process fleet:
 * the sum-per-key app of test/integration/fixtures/sum-topology.ts (Long keys
 * and values, a persistent store `store` with a changelog, exactly_once), so
 * with every input value 1 the output for a key is the count of its inputs,
 * and a committed output sequence per key of exactly 1, 2, ..., n shows no
 * loss and no duplicate.
 */
import type { ClusterPort } from '../../src/cluster/port.js';
import type { Logger } from '../../src/internal/logger.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { recordRestores, stateConfig } from '../../test/integration/fixtures/state-api.js';
import { STORE_NAME, sumTopology } from '../../test/integration/fixtures/sum-topology.js';
import { spyCluster, type SpyCluster, type SpyEvent } from './spy-cluster.js';

/** The HA config keys of src/runtime/config-ha.ts a scenario sets (absent: the default). */
export interface HaKeys {
  numStandbyReplicas?: number;
  maxWarmupReplicas?: number;
  probingRebalanceIntervalMs?: number;
  groupInstanceId?: string;
}

/** Everything one instance needs (JSON: passed to the child worker as argv). */
export interface InstanceSpec {
  slot: number;
  applicationId: string;
  input: string;
  output: string;
  stateDir: string;
  commitIntervalMs: number;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  ha: HaKeys;
}

/** An observation of an instance (the spy's, plus restore and state), `ts` in ms since the epoch. */
export type InstanceEvent =
  | SpyEvent
  | { kind: 'restore'; ts: number; partition: number; totalRestored: number }
  | { kind: 'state'; ts: number; state: string }
  | { kind: 'running'; ts: number }
  | { kind: 'loaded'; ts: number }
  /** kafkajs only: a JoinGroup → SyncGroup round of this member took `durationMs`. */
  | { kind: 'joined'; ts: number; durationMs: number }
  | { kind: 'exit'; ts: number; code: number | null; signal: string | null };

/** A built, not yet started instance. */
export interface HaApp {
  readonly app: KafkaStreams;
  readonly spy: SpyCluster;
}

/** The HA keys without those left unset (the defaults then apply). */
export function haConfig(keys: HaKeys): Partial<KafkaStreamsConfig> {
  return Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined)) as Partial<KafkaStreamsConfig>;
}

/** Builds the app of `spec` on `cluster`, reporting every {@link InstanceEvent} to `onEvent`. */
export function buildHaApp(cluster: ClusterPort, spec: InstanceSpec, onEvent: (event: InstanceEvent) => void, logger?: Logger): HaApp {
  const spy = spyCluster(cluster, { applicationId: spec.applicationId, input: spec.input, onEvent });
  const config: KafkaStreamsConfig = {
    applicationId: spec.applicationId,
    cluster: spy.cluster,
    processingGuarantee: 'exactly_once',
    commitIntervalMs: spec.commitIntervalMs,
    sessionTimeoutMs: spec.sessionTimeoutMs,
    heartbeatIntervalMs: spec.heartbeatIntervalMs,
    ...(logger ? { logger } : {}),
    ...stateConfig({ stateDir: spec.stateDir, statestoreCacheMaxBytes: 0 }),
    ...haConfig(spec.ha),
  };
  const app = new KafkaStreams(sumTopology({ input: spec.input, output: spec.output, store: 'persistent', requestCommits: false }), config);
  recordRestores(app, (event) => {
    if (event.kind === 'end' && event.storeName === STORE_NAME) onEvent({ kind: 'restore', ts: Date.now(), partition: event.partition, totalRestored: event.totalRestored });
  });
  app.state$.subscribe((state) => onEvent({ kind: 'state', ts: Date.now(), state }));
  return { app, spy };
}
