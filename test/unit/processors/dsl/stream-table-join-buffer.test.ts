/**
 * The buffer of a stream–table join with a grace period (KIP-923, Kafka's
 * `RocksDBTimeOrderedKeyValueBuffer`): what `put` holds or refuses, the
 * eviction order (timestamp, then key bytes, then arrival), and the
 * changelog: entries and tombstones logged at flush, replayed by restore
 * (stream time included, so a late record is still refused after a restart).
 */
import { describe, expect, it } from 'vitest';
import { Serdes } from '../../../../src/index.js';
import { StreamTableJoinBufferBuilder, type BufferedStreamRecord } from '../../../../src/processors/dsl/stream-table-join-buffer.js';
import type { ChangelogRecord } from '../../../../src/state/store-contract.js';
import { storeContext } from '../../state/helpers.js';

const S = Serdes.String();
const context = (timestamp: number) => ({ timestamp, headers: { h: 'v' }, topic: 'orders', partition: 0, offset: timestamp });

function open(sent?: ChangelogRecord[]) {
  const buffer = new StreamTableJoinBufferBuilder<string, string>('join-Buffer', 2, S, S).build();
  buffer.init({
    ...storeContext(''),
    ...(sent ? { changelog: { send: (_s: string, key: Buffer, value: Buffer | null, timestamp: number) => sent.push({ key, value, timestamp, offset: sent.length }) } } : {}),
  });
  return buffer;
}

function evictAll(buffer: ReturnType<typeof open>): string[] {
  const out: string[] = [];
  buffer.evictWhile(() => true, (r: BufferedStreamRecord<string, string>) => out.push(`${r.key}=${r.value}@${r.context.timestamp}`));
  return out;
}

describe('stream-table join buffer', () => {
  it('holds records until stream time - grace passes them, refuses older ones, evicts in (timestamp, key, arrival) order', () => {
    const buffer = open();
    expect(buffer.put('b', 'b1', 5, context(5))).toBe(true);
    expect(buffer.put('a', 'a1', 5, context(5))).toBe(true);
    expect(buffer.put('b', 'b2', 5, context(5))).toBe(true);
    expect(evictAll(buffer)).toEqual([]); // stream time 5: up to 3
    expect(buffer.put('c', 'c1', 7, context(7))).toBe(true);
    expect(evictAll(buffer)).toEqual(['a=a1@5', 'b=b1@5', 'b=b2@5']);
    expect(buffer.put('d', 'd1', 4, context(4))).toBe(false); // 7 - 2 > 4: join it now
    expect(buffer.put('e', 'e1', 5, context(5))).toBe(true); // 5 is not older than 7 - 2
    expect(evictAll(buffer)).toEqual(['e=e1@5']);
    expect(buffer.numRecords()).toBe(1);
    expect(buffer.minTimestamp()).toBe(7);
  });

  it('logs held records and tombstones at flush; a restore replays them and the stream time', () => {
    const sent: ChangelogRecord[] = [];
    const buffer = open(sent);
    buffer.put('a', 'a1', 10, context(10));
    buffer.put('b', 'b1', 11, context(11));
    buffer.put('c', 'c1', 12, context(12)); // stream time 12: evicts up to 10
    expect(evictAll(buffer)).toEqual(['a=a1@10']);
    expect(sent).toHaveLength(0);
    buffer.flush();
    expect(sent.map((r) => r.value === null)).toEqual([true, false, false]);
    expect(sent[0]?.key.readBigInt64BE(0)).toBe(10n); // store key: timestamp first
    buffer.close();

    const restored = open();
    restored.restoreBatch(sent);
    expect(restored.numRecords()).toBe(2);
    expect(restored.put('x', 'x1', 9, context(9))).toBe(false); // stream time 12 restored: 9 is too late
    expect(restored.put('d', 'd1', 14, context(14))).toBe(true);
    const out: BufferedStreamRecord<string, string>[] = [];
    restored.evictWhile(() => true, (r) => out.push(r));
    expect(out.map((r) => `${r.key}=${r.value}@${r.context.timestamp}`)).toEqual(['b=b1@11', 'c=c1@12']);
    expect(out[0]?.context).toEqual({ timestamp: 11, headers: { h: 'v' }, topic: 'orders', partition: 0, offset: 11 });
  });
});
