/**
 * The soak app's stream thread module (`--threads N`, N > 1): the worker
 * process (worker.ts) runs `numStreamThreads: N` with this file as its
 * `streamThreadModule`; each of the threads 2..N (a Node worker thread)
 * imports it and calls `topology()`. A worker thread sees its process's argv,
 * so it reads the same {@link WorkerConfig} from `process.argv[2]` and builds
 * the same topology; its config is this module's (the plain config and the
 * soak logger, which a thread cannot receive from its process) under the
 * process's plain keys.
 */
import { defineApp } from '../../src/cli/define-app.js';
import { soakTopology } from './topology.js';
import { plainStreamsConfig, readWorkerConfig, soakLogger, type WorkerConfig } from './worker-config.js';

const config: WorkerConfig = readWorkerConfig();

/** The soak app of one stream thread. */
export default defineApp({
  config: { ...plainStreamsConfig(config), stateDir: config.stateDir, logger: soakLogger(config) },
  topology: () => soakTopology(config.topics, { groups: config.groups, store: config.store, asyncStep: config.asyncStep === true }),
});
