/**
 * Output check of the count workload (./stateful-workload.ts): the
 * read_committed output (./read-committed.ts) holds, for every key, a
 * sequence of counts that never goes down (a count that drops is state that
 * was lost: a reset) and whose last value is the key's true count. With the
 * record cache, updates of a key between two commits collapse into one, so
 * the number of output records is at most the number of input records.
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { readCommitted } from './read-committed.js';
import { keysPresent, trueCount } from './stateful-workload.js';

/** Result of reading back one count output topic. */
export interface CountCheck {
  ok: boolean;
  /** Visible output records (count updates). */
  count: number;
  /** Keys whose last count is the true count. */
  correctKeys: number;
  /** Keys expected. */
  keys: number;
  /** Records of aborted transactions (not visible). */
  aborted: number;
  reason?: string;
}

/** Decodes Java's LongSerializer / sluice's `Serdes.Long()`: 8 bytes big-endian; NaN otherwise. */
export function decodeLong(value: Buffer | null): number {
  return value !== null && value.length === 8 ? Number(value.readBigInt64BE(0)) : Number.NaN;
}

/** Checks the counts in `topic` against the true counts of `records` records over `keys` keys. */
export async function verifyCounts(
  kafka: KafkaClient, topic: string, records: number, keys: number, { timeoutMs = 60_000 + records / 10 } = {},
): Promise<CountCheck> {
  const last = new Float64Array(keys).fill(-1);
  let count = 0;
  let badKeys = 0;
  let badValues = 0;
  let decreases = 0;
  let firstDecrease = '';
  const visible = ([j, n]: [number, number]): void => {
    count++;
    if (!(j >= 0 && j < keys)) return void badKeys++;
    if (!Number.isFinite(n)) return void badValues++;
    const before = last[j] ?? -1;
    if (n < before) {
      decreases++;
      if (firstDecrease === '') firstDecrease = `k${j} went from ${before} to ${n}`;
    }
    last[j] = n;
  };
  const summary = await readCommitted(kafka, topic, (m): [number, number] => {
    const key = m.key?.toString('utf8') ?? '';
    return [/^k\d+$/.test(key) ? Number(key.slice(1)) : -1, decodeLong(m.value)];
  }, visible, timeoutMs);
  const expectedKeys = keysPresent(records, keys);
  let correct = 0;
  let missing = 0;
  let wrong = 0;
  let firstWrong = '';
  for (let j = 0; j < keys; j++) {
    const want = trueCount(j, records, keys);
    const got = last[j] ?? -1;
    if (want === 0 && got === -1) continue;
    if (got === want) correct++;
    else if (got === -1) missing++;
    else {
      wrong++;
      if (firstWrong === '') firstWrong = `k${j}: last count ${got}, true count ${want}`;
    }
  }
  const reasons: string[] = [];
  if (!summary.complete) reasons.push(`read stopped after ${timeoutMs} ms before the end of the topic`);
  if (missing > 0) reasons.push(`${missing} of ${expectedKeys} keys have no count`);
  if (wrong > 0) reasons.push(`${wrong} keys end with a wrong count (e.g. ${firstWrong})`);
  if (decreases > 0) reasons.push(`${decreases} counts went down (state lost; e.g. ${firstDecrease})`);
  if (badKeys > 0) reasons.push(`${badKeys} records with an unexpected key`);
  if (badValues > 0) reasons.push(`${badValues} values that are not 8-byte longs`);
  if (count > records) reasons.push(`${count} count updates for ${records} input records`);
  if (summary.undecided > 0) reasons.push(`${summary.undecided} records in transactions without a marker`);
  const ok = reasons.length === 0;
  return { ok, count, correctKeys: correct, keys: expectedKeys, aborted: summary.aborted, ...(ok ? {} : { reason: reasons.join(', ') }) };
}
