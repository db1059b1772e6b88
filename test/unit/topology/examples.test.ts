import { afterEach, describe, expect, it } from 'vitest';
import { Serdes, type Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { buildWithDsl, buildWithProcessorApi, keptWords, TOPICS } from '../../../examples/word-filter/word-filter.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function run(topology: Topology) {
  driver = new TopologyTestDriver(topology, { initialWallClockTimeMs: 0 });
  const input = driver.createInputTopic(TOPICS.sentences, S, S);
  input.pipeInput('ann', 'The quick brown fox and the lazy dog', 1);
  input.pipeInput('bob', '', 2);
  input.pipeInput('bob', 'A quick word with the FOX', 3);
  return {
    words: driver.createOutputTopic(TOPICS.words, S, S).readKeyValuesToList(),
    counts: driver.createOutputTopic(TOPICS.counts, S, Serdes.Int32()).readKeyValuesToList(),
    store: storeOf(driver.getKeyValueStore<string, number>('word-counts')).all(),
    subtopologies: topology.describe().subtopologies.length,
  };
}

describe('examples/word-filter', () => {
  const expectedWords = [
    ...['quick', 'brown', 'fox', 'lazy', 'dog'].map((value) => ({ key: 'ann', value })),
    ...['quick', 'word', 'fox'].map((value) => ({ key: 'bob', value })),
  ];

  it('keptWords drops short and stop words', () => {
    expect(keptWords('The cat and THE hat, with style')).toEqual(['cat', 'hat', 'style']);
  });

  it('the DSL topology filters words and counts them per word', () => {
    const result = run(buildWithDsl());
    expect(result.words).toEqual(expectedWords);
    expect(result.counts).toContainEqual({ key: 'quick', value: 2 });
    expect(result.counts).toContainEqual({ key: 'fox', value: 2 });
    expect(result.store).toEqual([
      { key: 'brown', value: 1 },
      { key: 'dog', value: 1 },
      { key: 'fox', value: 2 },
      { key: 'lazy', value: 1 },
      { key: 'quick', value: 2 },
      { key: 'word', value: 1 },
    ]);
    expect(result.subtopologies).toBe(2);
  });

  it('the Processor API topology produces the same outputs', () => {
    const dsl = run(buildWithDsl());
    driver!.close();
    const papi = run(buildWithProcessorApi());
    expect(papi.words).toEqual(dsl.words);
    expect(papi.counts).toEqual(dsl.counts);
    expect(papi.store).toEqual(dsl.store);
    expect(papi.subtopologies).toBe(2);
  });
});
