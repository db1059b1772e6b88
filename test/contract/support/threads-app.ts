/**
 * The app module stream threads 2..N load on their worker threads in
 * test/contract/stream-threads.test.ts (`streamThreadModule`): the same
 * topology as the instance's, with the topics from the environment the
 * instance set before it started (a worker thread gets a copy of it).
 */
import { defineApp } from '../../../src/cli/define-app.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { Materialized } from '../../../src/topology/options.js';
import { TimeWindows } from '../../../src/topology/time-windows.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import type { Topology } from '../../../src/topology/topology.js';

/** input → `<value>@<thread>` per record, key kept; the thread tag lets the test see which thread did what. */
export function threadsTopology(input: string, output: string, thread: string): Topology {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .mapValues((v) => `${v}@${thread}`)
    .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
  return builder.build();
}

/** A count per key in the persistent store `counts`, each new count to `output` (Long values); and a count per key and hour in the window store `hourly`. */
export function countTopology(input: string, output: string): Topology {
  const builder = new StreamsBuilder();
  const grouped = builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() }).groupByKey();
  grouped
    .count(Materialized.as<string, number>('counts'))
    .toStream()
    .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.Long() });
  grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(3_600_000)).count(Materialized.as<string, number>('hourly'));
  return builder.build();
}

export default defineApp({
  topology() {
    const input = process.env.SLUICE_THREADS_TEST_INPUT;
    const output = process.env.SLUICE_THREADS_TEST_OUTPUT;
    if (!input || !output) throw new Error('SLUICE_THREADS_TEST_INPUT and SLUICE_THREADS_TEST_OUTPUT must be set');
    return process.env.SLUICE_THREADS_TEST_KIND === 'count' ? countTopology(input, output) : threadsTopology(input, output, 'worker');
  },
});
