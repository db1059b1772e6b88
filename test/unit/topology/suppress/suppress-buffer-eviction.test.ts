/**
 * The suppression buffer evicting many entries in one go (issue 32: evicted
 * entries leave the time-ordered array in bulk, not one array shift each):
 * every window is emitted once, in buffer-time then key order, with the
 * buffer's size right after each eviction and new entries taken afterwards.
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, Serdes, StreamsBuilder, Suppressed, TimeWindows, WindowedSerdes } from '../../../../src/index.js';
import type { Serde, Windowed } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const S = Serdes.String();
const L = Serdes.Long() as unknown as Serde<number>;
const SIZE = 1000;
const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, SIZE);

function run(batches: ReadonlyArray<{ keys: string[]; at: number }>, closeAt: number[]): Array<Array<[string, number, number]>> {
  const builder = new StreamsBuilder();
  builder
    .stream('input', { keySerde: S, valueSerde: S })
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeWithNoGrace(SIZE))
    .count()
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    .toStream()
    .to('final', { keySerde: windowedSerde, valueSerde: L });
  const driver = new TopologyTestDriver(builder.build(), { applicationId: 'suppress-eviction', statestoreCacheMaxBytes: 0 });
  try {
    const input = driver.createInputTopic('input', S, S);
    const output = driver.createOutputTopic('final', windowedSerde, L);
    const emitted: Array<Array<[string, number, number]>> = [];
    batches.forEach(({ keys, at }, i) => {
      for (const key of keys) input.pipeInput(key, 'v', at);
      input.pipeInput('closer', 'v', closeAt[i] as number);
      emitted.push(output.readRecordsToList().map((r) => [(r.key as Windowed<string>).key, (r.key as Windowed<string>).window.start, r.value as number]));
    });
    return emitted;
  } finally {
    driver.close();
  }
}

describe('suppression buffer: bulk eviction', () => {
  it('1,000 then 300 windows closed at once: each emitted once with its count, in key order, the second batch after the first was compacted away', () => {
    const first = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    const second = Array.from({ length: 300 }, (_, i) => `m${i}`);
    // every key twice in its window: count 2
    const [a, b] = run([{ keys: [...first, ...first], at: 10 }, { keys: [...second, ...second], at: 2 * SIZE + 10 }], [SIZE, 3 * SIZE]);
    expect(a).toEqual([...first].sort().map((k) => [k, 0, 2]));
    // the closer record's own window [1000, 2000) closes with the second batch, in key order with it ('closer' < 'm...')
    expect(b).toEqual([['closer', SIZE, 1], ...[...second].sort().map((k): [string, number, number] => [k, 2 * SIZE, 2])]);
  });
});
