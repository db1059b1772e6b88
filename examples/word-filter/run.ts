/**
 * Runs both word-filter topologies in the TopologyTestDriver and prints their
 * descriptions and outputs: `npx tsx examples/word-filter/run.ts`.
 */
import { Serdes } from '../../src/index.js';
import { TopologyTestDriver } from '../../src/testing.js';
import { buildWithDsl, buildWithProcessorApi, TOPICS } from './word-filter.js';

for (const [label, topology] of [
  ['DSL', buildWithDsl()],
  ['Processor API', buildWithProcessorApi()],
] as const) {
  console.log(`== ${label}\n${topology.describe().toString()}`);
  const driver = new TopologyTestDriver(topology);
  const input = driver.createInputTopic(TOPICS.sentences, Serdes.String(), Serdes.String());
  input.pipeInput('ann', 'The quick brown fox and the lazy dog');
  input.pipeInput('bob', 'A quick word with the fox');
  console.log(driver.createOutputTopic(TOPICS.words, Serdes.String(), Serdes.String()).readKeyValuesToList());
  console.log(driver.createOutputTopic(TOPICS.counts, Serdes.String(), Serdes.Int32()).readKeyValuesToMap());
  driver.close();
}
