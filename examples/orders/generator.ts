/**
 * A deterministic generator of order records, with a known share of invalid
 * orders (filtered out) and poison ones: undecodable JSON (dead-lettered by the
 * deserialization handler), a huge note (too large for a region topic) and a
 * missing id (null key on the compacted status topic). It also computes, from
 * what it generated, the outputs a correct run must commit.
 */
import { CUSTOMER_COUNT, tierOf, type Tier } from './customers.js';
import { COUNTRIES, regionOf, type Order, type Region } from './model.js';

/** One input record, ready to produce. */
export interface GeneratedRecord {
  key: string | null;
  value: string;
  partition: number;
}

/** What a correct run of the pipeline over the generated input commits. */
export interface ExpectedOutputs {
  inputs: number;
  /** Undecodable values (dead-lettered as raw input). */
  garbled: number;
  /** Orders the filter drops. */
  invalid: number;
  /** Valid orders whose region record exceeds the region topic's max.message.bytes. */
  tooLarge: number;
  /** Valid orders without id: their status record has a null key on a compacted topic. */
  missingKey: number;
  /** Region records committed, per region. */
  regions: Record<Region, number>;
  /** Status records committed. */
  status: number;
  /** Records on the dead-letter topic: tooLarge + missingKey + garbled. */
  deadLettered: number;
  /** Output records dropped by the production handler: tooLarge + missingKey. */
  dropped: number;
  /** `seq` of every order expected on each region topic, and on the status topic. */
  seqs: { regions: Record<Region, number[]>; status: number[] };
  /** Revenue (sum of order totals) of every valid order, per region: what the revenue store must end with. */
  revenue: Record<Region, number>;
  /**
   * Valid orders per tier of their customer at the time (the first half of
   * the orders joins the original tiers, the second half the upgraded ones):
   * what the `orders-with-customer` topic must hold.
   */
  tiers: Record<Tier, number>;
}

/** Options of {@link generateOrders}. */
export interface GenerateOptions {
  count: number;
  partitions?: number;
  seed?: number;
  /** Shares of the special kinds (defaults: 0.5% garbled, 2% invalid, 1% too large, 1% missing id). */
  rates?: Partial<Record<'garbled' | 'invalid' | 'tooLarge' | 'missingKey', number>>;
  /** Prefix of order ids, to keep ids unique across runs. */
  idPrefix?: string;
}

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generates `count` order records over `partitions` partitions (round-robin) and the expected outputs. */
export function generateOrders(options: GenerateOptions): { records: GeneratedRecord[]; expected: ExpectedOutputs } {
  const { count, partitions = 3, seed = 42, idPrefix = 'o' } = options;
  const rates = { garbled: 0.005, invalid: 0.02, tooLarge: 0.01, missingKey: 0.01, ...options.rates };
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const expected: ExpectedOutputs = {
    inputs: count, garbled: 0, invalid: 0, tooLarge: 0, missingKey: 0,
    regions: { eu: 0, na: 0, apac: 0 }, status: 0, deadLettered: 0, dropped: 0,
    seqs: { regions: { eu: [], na: [], apac: [] }, status: [] },
    revenue: { eu: 0, na: 0, apac: 0 },
    tiers: { gold: 0, silver: 0, bronze: 0 },
  };
  const half = Math.floor(count / 2);
  const records: GeneratedRecord[] = [];
  const t0 = Date.now();
  for (let seq = 0; seq < count; seq++) {
    const partition = seq % partitions;
    const id = `${idPrefix}-${seq}`;
    const r = rnd();
    let edge = rates.garbled;
    if (r < edge) {
      expected.garbled++;
      records.push({ key: id, value: `{"id":"${id}","items":[`, partition });
      continue;
    }
    const country = pick(COUNTRIES);
    const order: Order = {
      id,
      seq,
      customerId: `c-${Math.floor(rnd() * CUSTOMER_COUNT)}`,
      country,
      items: Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
        sku: `sku-${Math.floor(rnd() * 100)}`,
        qty: 1 + Math.floor(rnd() * 5),
        price: 100 + Math.floor(rnd() * 10_000),
      })),
      createdAt: t0 + seq,
    };
    const region = regionOf(country)!;
    let valid = true;
    if (r < (edge += rates.invalid)) {
      valid = false;
      expected.invalid++;
      order.items = rnd() < 0.5 ? [] : order.items.map((i) => ({ ...i, qty: 0 }));
    } else if (r < (edge += rates.tooLarge)) {
      expected.tooLarge++;
      order.note = 'gift wrap please! '.repeat(200); // ~3.6 KB > 2048
      expected.seqs.status.push(seq);
    } else if (r < (edge += rates.missingKey)) {
      expected.missingKey++;
      order.id = null;
      expected.seqs.regions[region].push(seq);
    } else {
      expected.seqs.regions[region].push(seq);
      expected.seqs.status.push(seq);
    }
    if (valid) {
      expected.revenue[region] += order.items.reduce((sum, i) => sum + i.qty * i.price, 0);
      expected.tiers[tierOf(Number(order.customerId.slice(2)), seq < half ? 0 : 1)]++;
    }
    records.push({ key: order.id, value: JSON.stringify(order), partition });
  }
  for (const region of ['eu', 'na', 'apac'] as const) expected.regions[region] = expected.seqs.regions[region].length;
  expected.status = expected.seqs.status.length;
  expected.dropped = expected.tooLarge + expected.missingKey;
  expected.deadLettered = expected.dropped + expected.garbled;
  return { records, expected };
}
