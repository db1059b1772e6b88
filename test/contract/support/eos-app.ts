/**
 * Starts the exactly_once app of a contract case: the backend's cluster and
 * consumer timing, commit interval 100 ms, a fresh state directory (so state
 * comes from the changelogs on a restart), tracked in `apps` and `dirs` for
 * the case's cleanup.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../../src/runtime/config.js';
import type { Topology } from '../../../src/topology/topology.js';
import type { BackendContext } from '../backends.js';

/** What {@link startEosApp} needs besides the topology. */
export interface EosAppOptions {
  applicationId: string;
  /** Prefix of the state directory's name under the OS temp folder. */
  dirPrefix: string;
  apps: KafkaStreams[];
  dirs: string[];
  /** Further settings (e.g. `statestoreCacheMaxBytes: 0`). */
  extra?: Partial<KafkaStreamsConfig>;
}

/** Starts `topology` exactly_once on the backend of `ctx` (see the module comment). */
export async function startEosApp(ctx: BackendContext, topology: Topology, o: EosAppOptions): Promise<KafkaStreams> {
  const dir = mkdtempSync(join(tmpdir(), o.dirPrefix));
  o.dirs.push(dir);
  const app = new KafkaStreams(topology, {
    cluster: ctx.cluster,
    ...ctx.consumerTiming,
    applicationId: o.applicationId,
    processingGuarantee: 'exactly_once',
    commitIntervalMs: 100,
    stateDir: dir,
    ...o.extra,
  });
  o.apps.push(app);
  await app.start();
  return app;
}
