import { describe, expect, it } from 'vitest';
import { generateOrders } from '../../examples/orders/generator.js';
import { REGION_MAX_MESSAGE_BYTES } from '../../examples/orders/topics.js';
import { formatSummary, runOrdersPipeline, summaryMatchesExpected } from '../../examples/orders/run-orders.js';
import { EmbeddedKafkaCluster } from '../../src/testing.js';

/** Expected outputs recomputed from the generated records alone (not from the generator's own labels). */
function recompute(records: ReturnType<typeof generateOrders>['records']) {
  const known: Record<string, 'eu' | 'na' | 'apac'> = { DE: 'eu', FR: 'eu', NL: 'eu', ES: 'eu', IT: 'eu', US: 'na', CA: 'na', MX: 'na', JP: 'apac', AU: 'apac', SG: 'apac', IN: 'apac' };
  const out = { regions: { eu: 0, na: 0, apac: 0 }, status: 0, deadLettered: 0, dropped: 0 };
  for (const r of records) {
    let order: { id: string | null; country: string; items: Array<{ qty: number; price: number }>; note?: string };
    try {
      order = JSON.parse(r.value);
    } catch {
      out.deadLettered++;
      continue;
    }
    const valid = order.items.length > 0 && order.items.every((i) => i.qty > 0) && known[order.country] !== undefined;
    if (!valid) continue;
    const tooLarge = r.value.length + 200 > REGION_MAX_MESSAGE_BYTES;
    if (tooLarge) out.dropped++;
    else out.regions[known[order.country]!]++;
    if (order.id === null) out.dropped++;
    else out.status++;
  }
  out.deadLettered += out.dropped;
  return out;
}

describe('examples/orders', () => {
  it('the generator labels match an independent recomputation', () => {
    const { records, expected } = generateOrders({ count: 3000, seed: 7 });
    expect(records).toHaveLength(3000);
    expect(expected.tooLarge).toBeGreaterThan(0);
    expect(expected.missingKey).toBeGreaterThan(0);
    expect(expected.garbled).toBeGreaterThan(0);
    const again = recompute(records);
    expect(again.regions).toEqual(expected.regions);
    expect(again.status).toBe(expected.status);
    expect(again.dropped).toBe(expected.dropped);
    expect(again.deadLettered).toBe(expected.deadLettered);
    expect(new Set(records.map((r) => r.partition))).toEqual(new Set([0, 1, 2]));
  });

  it('runs exactly-once on the embedded cluster: good outputs committed once, poison dead-lettered', async () => {
    const cluster = new EmbeddedKafkaCluster();
    try {
      const summary = await runOrdersPipeline({ count: 1500, seed: 11, cluster, topicPrefix: 'eo-test-', applicationId: 'orders-example-test' });
      const again = recompute(generateOrders({ count: 1500, seed: 11, idPrefix: 'x' }).records);
      expect(summary.finalState).toBe('NOT_RUNNING');
      // the inputs, the customer rows, and each valid order twice more: from the by-region repartition topic (the revenue step)
      // and from the with-customer repartition topic (the join)
      const valid = 1500 - summary.expected.garbled - summary.expected.invalid;
      expect(summary.customerRows).toBe(500 + 50);
      expect(summary.recordsProcessed).toBe(1500 + summary.customerRows + 2 * valid);
      // every valid order joined its customer's row of the time: the second half sees the upgrades to gold
      expect(summary.tiers).toEqual(summary.expected.tiers);
      expect(summary.tiers.gold + summary.tiers.silver + summary.tiers.bronze).toBe(valid);
      // the revenue store continued over the restart in the middle: the final revenue is the true one
      expect(summary.revenue).toEqual(summary.expected.revenue);
      expect(summary.expected.revenue.eu).toBeGreaterThan(0);
      expect(summary.outputsCommitted.regions).toEqual(again.regions);
      expect(summary.outputsCommitted.status).toBe(again.status);
      expect(summary.outputsCommitted.total).toBe(again.regions.eu + again.regions.na + again.regions.apac + again.status);
      expect(summary.dropped).toBe(again.dropped);
      expect(summary.deadLettered).toBe(again.deadLettered);
      expect(summary.deadLettered).toBe(summary.expected.tooLarge + summary.expected.missingKey + summary.expected.garbled);
      expect(summary.skipped).toBe(summary.expected.garbled);
      expect(summary.aborts).toBe(0);
      expect(summary.throughput).toBeGreaterThan(0);
      expect(summaryMatchesExpected(summary)).toBe(true);
      expect(formatSummary(summary)).toContain(`dead-lettered          ${summary.deadLettered}`);

      // Every order shows up exactly once per topic, and each dead-letter record names its failure.
      const eu = await cluster.readCommitted('eo-test-orders-eu');
      const seqs = eu.map((r) => (JSON.parse(r.value!.toString()) as { seq: number }).seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      const dlq = await cluster.readCommitted('eo-test-orders-dlq');
      const classes = dlq.map((r) => String(r.headers['sluice.error.class']));
      expect(classes.filter((c) => c === 'RecordTooLargeError')).toHaveLength(summary.expected.tooLarge);
      expect(classes.filter((c) => c === 'InvalidRecordError')).toHaveLength(summary.expected.missingKey);
      expect(classes.filter((c) => c === 'SerializationError')).toHaveLength(summary.expected.garbled);
      for (const r of dlq) {
        expect(r.headers['sluice.input.topic']?.toString()).toBe('eo-test-orders');
        expect(Number(r.headers['sluice.input.offset']?.toString())).toBeGreaterThanOrEqual(0);
        expect(r.headers['sluice.processor.node']?.toString()).toBeTruthy();
      }
      const tooLarge = dlq.find((r) => String(r.headers['sluice.error.class']) === 'RecordTooLargeError')!;
      expect(tooLarge.value!.length).toBeGreaterThan(REGION_MAX_MESSAGE_BYTES);
      expect(JSON.parse(tooLarge.value!.toString())).toHaveProperty('region');
    } finally {
      await cluster.close();
    }
  });
});
