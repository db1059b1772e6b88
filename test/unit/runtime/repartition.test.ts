import { afterEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import type { Topology } from '../../../src/topology/topology.js';
import type { ConsumedRecord } from '../../../src/cluster/port.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

const S = Serdes.String();
const REPARTITION = 'KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition';

/** lines → words → groupBy(word) → count → output (word → count as a decimal string). */
function wordCount(input: string, output: string): Topology {
  const b = new StreamsBuilder();
  b.stream<string, string>(input, { keySerde: S, valueSerde: S })
    .flatMapValues((line) => line.split(' '))
    .groupBy((_k, word) => word, { keySerde: S, valueSerde: S })
    .count()
    .toStream()
    .mapValues((n) => String(n))
    .to(output, { keySerde: S, valueSerde: S });
  return b.build();
}

const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape'];

/** 90 lines of three words on 3 partitions; returns the occurrences of each word. */
function lines(n: number): { records: Array<{ key: string; value: string; partition: number; timestamp: number }>; occurrences: Map<string, number> } {
  const occurrences = new Map<string, number>();
  const records = Array.from({ length: n }, (_, i) => {
    const words = [WORDS[i % 7]!, WORDS[(i * 3 + 1) % 7]!, WORDS[(i * 5 + 2) % 7]!];
    for (const w of words) occurrences.set(w, (occurrences.get(w) ?? 0) + 1);
    return { key: `line${i}`, value: words.join(' '), partition: i % 3, timestamp: 1_000_000 + i };
  });
  return { records, occurrences };
}

/** Each word's committed count updates, in order (a word's updates all land in one partition). */
function updatesByWord(records: ConsumedRecord[]): Map<string, number[]> {
  const byWord = new Map<string, number[]>();
  for (const r of records) {
    const word = r.key!.toString();
    byWord.set(word, [...(byWord.get(word) ?? []), Number(r.value!.toString())]);
  }
  return byWord;
}

describe('KafkaStreams with a repartition topic (embedded cluster)', () => {
  it('word count with groupBy over 3 partitions: the repartition topic is created, counts are exactly once', async () => {
    const cluster = closer.cluster();
    const [input, output] = [uniqueTopic('lines'), uniqueTopic('counts')];
    await cluster.createTopic(input, { partitions: 3 });
    await cluster.createTopic(output, { partitions: 3 });
    const { records, occurrences } = lines(90);
    await cluster.produce(input, records);
    const applicationId = uniqueGroup('wc');
    const app = closer.app(wordCount(input, output), { applicationId, cluster, commitIntervalMs: 50, statestoreCacheMaxBytes: 0 });
    await app.start();
    const repartition = `${applicationId}-${REPARTITION}`;
    expect((await cluster.describeTopic(repartition)).partitions).toBe(3);
    expect(app.metrics().tasks).toHaveProperty('1_2');
    await waitFor(async () => (await cluster.readCommitted(output)).length === 270);
    // The downstream tasks committed their repartition input up to (past) the last record of each partition.
    const repartitioned = await cluster.readCommitted(repartition);
    const nextOffsets = [0, 1, 2].map((p) => Math.max(-1, ...repartitioned.filter((r) => r.partition === p).map((r) => r.offset)) + 1);
    expect(nextOffsets.every((o) => o > 0)).toBe(true);
    await waitFor(async () => (await cluster.committedOffsets(applicationId, repartition)).every((c, p) => c >= nextOffsets[p]!));
    await app.close();
    expect(app.state).toBe('NOT_RUNNING');

    // Exactly once: each word's committed updates are 1, 2, ..., occurrences (nothing lost, nothing twice).
    const byWord = updatesByWord(await cluster.readCommitted(output));
    expect([...byWord.keys()].sort()).toEqual([...occurrences.keys()].sort());
    for (const [word, n] of occurrences) {
      expect(byWord.get(word), word).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    }
    // The repartition topic holds one record per word occurrence, keyed by the word, with the input timestamps.
    expect(repartitioned).toHaveLength(270);
    expect(new Set(repartitioned.map((r) => r.timestamp))).toEqual(new Set(records.map((r) => r.timestamp)));
    for (const r of repartitioned) expect(r.value!.toString()).toBe(r.key!.toString());
    const metrics = app.metrics();
    expect(metrics.recordsProcessed).toBe(90 + 270);
  });

  it('an existing repartition topic with the right count is reused; with another count start() fails naming it', async () => {
    const cluster = closer.cluster();
    const [input, output] = [uniqueTopic('lines'), uniqueTopic('counts')];
    await cluster.createTopic(input, { partitions: 3 });
    await cluster.createTopic(output, { partitions: 1 });
    const reused = uniqueGroup('wc');
    await cluster.createTopic(`${reused}-${REPARTITION}`, { partitions: 3 });
    await cluster.produce(input, [{ key: 'l', value: 'a a' }]);
    const ok = closer.app(wordCount(input, output), { applicationId: reused, cluster, commitIntervalMs: 50, statestoreCacheMaxBytes: 0 });
    await ok.start();
    await waitFor(async () => (await cluster.readCommitted(output)).length === 2);
    await ok.close();

    const wrong = uniqueGroup('wc');
    await cluster.createTopic(`${wrong}-${REPARTITION}`, { partitions: 2 });
    const app = closer.app(wordCount(input, output), { applicationId: wrong, cluster });
    const failure = await app.start().then(() => undefined, (error: unknown) => error);
    expect(failure).toMatchObject({ code: 'INTERNAL_TOPIC_PARTITIONS_MISMATCH' });
    expect(String((failure as Error).message)).toContain(`'${wrong}-${REPARTITION}' exists with 2 partitions, but the topology needs 3`);
    expect(app.state).toBe('ERROR');
  });
});
