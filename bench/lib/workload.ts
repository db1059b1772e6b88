/**
 * The benchmark workload, shared by every TypeScript contender and mirrored by
 * bench/java (KafkaStreamsBench.java): 100-byte JSON values; the pipeline parses
 * the value, drops `type: "ping"` (every 10th record), enriches it and writes it.
 */

/** Size of every input value in bytes. */
export const VALUE_BYTES = 100;
/** Input (and output) partitions. */
export const PARTITIONS = 8;

const REGIONS = ['eu', 'us', 'apac', 'latam'] as const;

/** An input value as the loader writes it. */
export interface InputValue {
  id: number;
  user: string;
  type: 'order' | 'ping';
  amount: number;
  pad: string;
}

/** An output value as every contender writes it. `pt` is the processing time (ms since the epoch). */
export interface OutputValue {
  id: number;
  user: string;
  amount: number;
  cents: number;
  region: string;
  pt: number;
}

/** True when input record `id` is dropped by the filter (10%). */
export function isDropped(id: number): boolean {
  return id % 10 === 9;
}

/** Number of output records expected for `records` inputs (ids 0..records-1). */
export function expectedOutputs(records: number): number {
  return records - Math.floor(records / 10);
}

/** The record key of input `id`. */
export function keyOf(id: number): string {
  return `k${id}`;
}

/** The 100-byte JSON value of input `id`. */
export function inputValue(id: number): string {
  const user = `u${String((id * 7919) % 1000).padStart(4, '0')}`;
  const amount = ((id * 37) % 100_000) / 100;
  const type = isDropped(id) ? 'ping' : 'order';
  const head = `{"id":${id},"user":"${user}","type":"${type}","amount":${amount},"pad":"`;
  const padLength = VALUE_BYTES - head.length - 2;
  if (padLength < 0) throw new RangeError(`id ${id} does not fit a ${VALUE_BYTES}-byte value`);
  return `${head}${'x'.repeat(padLength)}"}`;
}

/** Pipeline step 1: parse the JSON value. */
export function parse(value: string): InputValue {
  return JSON.parse(value) as InputValue;
}

/** Pipeline step 2: the filter (keeps 90%). */
export function keep(value: InputValue): boolean {
  return value.type !== 'ping';
}

/** Pipeline step 3: enrich/map; stamps the processing time `pt`. */
export function enrich(value: InputValue): OutputValue {
  return {
    id: value.id,
    user: value.user,
    amount: value.amount,
    cents: Math.round(value.amount * 100),
    region: REGIONS[Number(value.user.slice(1)) % REGIONS.length] ?? 'eu',
    pt: Date.now(),
  };
}

/** The whole pipeline on one serialized value: the serialized output, or null when filtered out. */
export function transform(value: string): string | null {
  const parsed = parse(value);
  return keep(parsed) ? JSON.stringify(enrich(parsed)) : null;
}
