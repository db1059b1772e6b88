/**
 * The customers of the orders example: a compacted topic keyed by customer
 * id, read as a KTable that enriches each order with its customer's name and
 * tier. Between the two halves of a run a tenth of the customers move up to
 * gold, so orders of the second half join the updated rows.
 */
import { partitionFor } from '../../src/records/partitioner.js';
import type { GeneratedRecord } from './generator.js';

/** Customers c-0 … c-499. */
export const CUSTOMER_COUNT = 500;

/** Loyalty tiers. */
export type Tier = 'gold' | 'silver' | 'bronze';

/** A row of the customers table. */
export interface Customer {
  id: string;
  name: string;
  tier: Tier;
}

/** An order joined with its customer (the `orders-with-customer` topic, keyed by customer id). */
export interface CustomerOrder {
  seq: number;
  orderId: string | null;
  customerId: string;
  customerName: string;
  tier: Tier;
  total: number;
}

const TIERS: readonly Tier[] = ['bronze', 'silver', 'gold'];

/** The tier of customer `index` in phase 0 (the first half) or 1 (after every tenth customer moved up to gold). */
export function tierOf(index: number, phase: 0 | 1): Tier {
  if (phase === 1 && index % 10 === 0) return 'gold';
  return TIERS[index % 3] ?? 'bronze';
}

/** The index of `c-<index>`. */
export function customerIndex(customerId: string): number {
  return Number(customerId.slice(2));
}

/** The customer rows of a phase: every customer in phase 0, the upgraded ones in phase 1. */
export function customerRecords(phase: 0 | 1, partitions: number): GeneratedRecord[] {
  const records: GeneratedRecord[] = [];
  for (let i = 0; i < CUSTOMER_COUNT; i++) {
    if (phase === 1 && i % 10 !== 0) continue;
    const customer: Customer = { id: `c-${i}`, name: `Customer ${i}`, tier: tierOf(i, phase) };
    // partitioned by murmur2 of the key, as the orders repartitioned by customer id are: the join is co-partitioned
    records.push({ key: customer.id, value: JSON.stringify(customer), partition: partitionFor(Buffer.from(customer.id), partitions) });
  }
  return records;
}
