/**
 * Punctuation of a processValues (fixed-key) processor in the runtime, on the
 * embedded cluster, exactly once: a wall-clock punctuator forwards the
 * remembered last record of each key with its count (`withValue`), a
 * stream-time punctuator records the stream times it fires at. Both fire
 * through the `FixedKeyProcessorContext`, and what the wall-clock one
 * forwards is committed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FixedKeyProcessorContext } from '../../../src/processors/fixed-key-processor.js';
import type { FixedKeyRecord } from '../../../src/processors/fixed-key-record.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, kv } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('punctuation of processValues processors in the runtime', () => {
  it('wall-clock punctuators forward derived records (committed); stream-time punctuators follow record timestamps', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const streamTimes: number[] = [];
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .processValues<string>(() => {
        const last = new Map<string, FixedKeyRecord<string, string>>();
        const counts = new Map<string, number>();
        let context: FixedKeyProcessorContext<string, string>;
        return {
          init(c) {
            context = c;
            c.schedule(30, 'WALL_CLOCK_TIME', () => {
              for (const [key, record] of last) context.forward(record.withValue(String(counts.get(key))));
              last.clear();
              counts.clear();
            });
            c.schedule(1000, 'STREAM_TIME', (ts) => void streamTimes.push(ts));
          },
          process(record) {
            last.set(record.key, record);
            counts.set(record.key, (counts.get(record.key) ?? 0) + 1);
          },
        };
      })
      .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const app = closer.app(builder.build(), { applicationId: uniqueGroup('app'), cluster, processingGuarantee: 'exactly_once', commitIntervalMs: 50 });
    await app.start();
    // a whole second: stream-time punctuation is aligned to multiples of the interval, as Kafka's PunctuationSchedule.next
    const base = Math.floor(Date.now() / 1000) * 1000;
    // stream time: base, base+500, base+1000 (fires: base, base+1000), base+1200, base+2500 (fires)
    const records = [0, 500, 1000, 1200, 2500].flatMap((dt, i) => [{ key: 'a', value: `a${i}`, timestamp: base + dt }, ...(i % 2 === 0 ? [{ key: 'b', value: `b${i}`, timestamp: base + dt }] : [])]);
    await cluster.produce(input, records);
    await waitFor(async () => {
      const counted = kv(await cluster.readCommitted(output)).map((s) => s.split('='));
      const total = (key: string) => counted.filter(([k]) => k === key).reduce((n, [, v]) => n + Number(v), 0);
      return total('a') === 5 && total('b') === 3;
    }, { message: 'punctuated counts committed' });
    expect(streamTimes).toEqual([base, base + 1000, base + 2500]);
    await app.close();
  });
});
