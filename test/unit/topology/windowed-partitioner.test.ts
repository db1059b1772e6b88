/**
 * Windowed keys written by a sink are partitioned by their inner key (Kafka's
 * `WindowedStreamPartitioner`, picked by `StreamSinkNode` when the key serde
 * is windowed and no partitioner is given).
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, TimeWindows, Windowed, WindowedSerdes } from '../../../src/index.js';
import { partitionFor } from '../../../src/records/partitioner.js';
import { planOf } from '../../../src/topology/topology.js';
import { windowedStreamPartitioner } from '../../../src/topology/internal/windowed-partitioner.js';

const S = Serdes.String();

describe('windowed stream partitioner', () => {
  it('puts every window of a key on the partition of the key itself; other serdes get none', () => {
    const partitioner = windowedStreamPartitioner(WindowedSerdes.timeWindowedSerdeFrom(S, 10))!;
    const byDefault = new Set<number>();
    for (let start = 0; start < 200; start += 10) {
      const windowed = Windowed.of('key-7', { start, end: start + 10 });
      expect(partitioner('out', windowed, 1, 8)).toBe(partitionFor(S.serialize('out', 'key-7')!, 8));
      byDefault.add(partitionFor(WindowedSerdes.timeWindowedSerdeFrom(S, 10).serialize('out', windowed)!, 8));
    }
    // murmur2 of key|start would scatter the windows of one key
    expect(byDefault.size).toBeGreaterThan(1);
    const session = windowedStreamPartitioner(WindowedSerdes.sessionWindowedSerdeFrom(S))!;
    expect(session('out', Windowed.of('key-7', { start: 5, end: 9 }), 1, 8)).toBe(partitionFor(S.serialize('out', 'key-7')!, 8));
    expect(windowedStreamPartitioner(S)).toBeUndefined();
  });

  it('a windowed table written with toStream().to(topic) gets it; a partitioner in Produced wins', () => {
    const builder = new StreamsBuilder();
    const table = builder.stream('in', { keySerde: S, valueSerde: S }).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count();
    const own = () => 0;
    table.toStream().to('out', { valueSerde: Serdes.Long(), name: 'windowed-sink' });
    table.toStream().to('out2', { valueSerde: Serdes.Long(), partitioner: own, name: 'own-sink' });
    const plan = planOf(builder.build());
    const sink = plan.nodes.get('windowed-sink') as { partitioner?: (t: string, k: unknown, v: unknown, n: number) => number | undefined };
    expect(sink.partitioner?.('out', Windowed.of('a', { start: 20, end: 30 }), 1, 5)).toBe(partitionFor(S.serialize('out', 'a')!, 5));
    expect((plan.nodes.get('own-sink') as { partitioner?: unknown }).partitioner).toBe(own);
  });
});
