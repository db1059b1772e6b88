/**
 * The main module of a stream thread on a worker thread (see
 * worker-stream-thread.ts). Steps (the code mirrors them):
 * 1. load the app module (`streamThreadModule`): its default export or its
 *    export `app` must be an app definition (`defineApp({ topology, config })`);
 * 2. build the topology with its `topology()` (never its `setup()`: the
 *    instance set the cluster up already);
 * 3. the config: the module's `config`, overlaid by the instance's plain
 *    config, as one thread with the instance's identity;
 * 4. run it: report every state, a metrics snapshot every interval, a
 *    failure (its message only: an error object does not cross threads);
 * 5. on `close`: close the app, send the last snapshot and `closed`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { KafkaStreams } from '../kafka-streams.js';
import { appLogger } from '../config-conveniences.js';
import type { KafkaStreamsConfig } from '../config.js';
import type { Topology } from '../../topology/topology.js';
import { threadConfig, type InstanceToThread, type ThreadToInstance, type WorkerThreadData } from './stream-thread-identity.js';
import { componentLogger } from '../../internal/logger.js';

interface ThreadAppDefinition {
  topology(context: { embedded: boolean; applicationId: string; logger: unknown }): unknown;
  config?: Partial<KafkaStreamsConfig>;
}

const port = parentPort;
const data = workerData as WorkerThreadData;
const send = (message: ThreadToInstance): void => port?.postMessage(message);

async function run(): Promise<void> {
  if (port === null) throw new Error('stream-thread-main runs on a worker thread only');
  // 1. the module
  const module = (await import(data.moduleUrl)) as { default?: unknown; app?: unknown };
  const def = [module.default, module.app].find(isDefinition);
  if (def === undefined) {
    throw new Error(`${data.moduleUrl} has no app definition: its default export (or export 'app') must be defineApp({ topology() { ... }, config })`);
  }
  // 2. the topology
  const given = { ...def.config, ...data.config } as KafkaStreamsConfig;
  const logger = componentLogger('stream-thread', appLogger(given.logger, given.logLevel), { thread: data.identity.index });
  const source = (await def.topology({ embedded: false, applicationId: given.applicationId, logger })) as { build?: () => Topology; describe?: unknown };
  const topology = typeof source.describe !== 'function' && typeof source.build === 'function' ? source.build() : (source as unknown as Topology);
  // 3. the config
  const app = new KafkaStreams(topology, threadConfig(given, data.identity));
  // 4. run and report
  const snapshot = (): void => send({ t: 'snapshot', metrics: app.metrics(), threads: app.metadataForLocalThreads() });
  app.state$.subscribe((state) => {
    send({ t: 'state', state });
    snapshot();
    if (state === 'ERROR') send({ t: 'failed', message: app.error?.message ?? 'the stream thread stopped in ERROR' });
  });
  const timer = setInterval(snapshot, data.snapshotIntervalMs);
  // 5. close on request
  port.on('message', (message: InstanceToThread) => {
    if (message.t !== 'close') return;
    clearInterval(timer);
    void app.close().finally(() => {
      snapshot();
      send({ t: 'closed' });
    });
  });
  await app.start().catch((error: unknown) => {
    if (app.state !== 'NOT_RUNNING') send({ t: 'failed', message: error instanceof Error ? error.message : String(error) });
  });
}

function isDefinition(value: unknown): value is ThreadAppDefinition {
  return value !== null && typeof value === 'object' && typeof (value as { topology?: unknown }).topology === 'function';
}

run().catch((error: unknown) => send({ t: 'failed', message: error instanceof Error ? error.message : String(error) }));
