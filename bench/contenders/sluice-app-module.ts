/**
 * The benchmark pipeline's topology, shared by every stream thread of the
 * "sluice" contender (sluice-app.ts). With `--threads N` (N > 1) this file is
 * the app's `streamThreadModule`: each of the threads 2..N, a Node worker
 * thread, imports it and calls the default export's `topology()`. A worker
 * thread sees the parent's command line in `process.argv`, so it rebuilds the
 * very topology and serdes of thread 1 from the same `--input` / `--output`.
 * The config needs nothing of the module: the parent's keys are plain data.
 */
import { defineApp, Serdes, StreamsBuilder, type Topology } from '../../src/index.js';
import { enrich, keep, parse, type InputValue } from '../lib/workload.js';
import { contenderArgs, markFirst, type ContenderArgs } from './common.js';

/** The pipeline: input → peek(first record) → parse → filter → enrich → output, string serdes. */
export function benchTopology(args: Pick<ContenderArgs, 'input' | 'output'>): Topology {
  const serdes = { keySerde: Serdes.String(), valueSerde: Serdes.String() };
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(args.input, serdes)
    .peek(() => markFirst())
    .mapValues((value: string): InputValue => parse(value))
    .filter((_key, value) => keep(value))
    .mapValues((value) => JSON.stringify(enrich(value)))
    .to(args.output, serdes);
  return builder.build();
}

/** The stream threads' app: the same topology, from the command line every thread shares. */
export default defineApp({
  topology: () => benchTopology(contenderArgs()),
});
