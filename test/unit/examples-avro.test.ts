/**
 * `npm run example:avro` (examples/avro): the run on the embedded cluster with
 * the in-process Schema Registry, and its `OK` line's conditions.
 */
import { describe, expect, it } from 'vitest';
import { avroSummaryOk, runAvroOrders } from '../../examples/avro/run-avro.js';

describe('examples/avro', () => {
  it('reads v1 and v2 orders into v2, writes every total once, dead-letters the unknown id and the plain JSON record', async () => {
    const summary = await runAvroOrders({ count: 120, prefix: 'avro-test-' });
    expect(summary).toMatchObject({ ordersV1: 60, ordersV2: 60, totals: 120, totalsMatch: true, deadLetters: 2, deadLetterSchemaIds: ['4242'] });
    expect(summary.subjects).toEqual({ 'avro-test-orders-value': [1, 2], 'avro-test-order-totals-value': [1] });
    expect(avroSummaryOk(summary, 120)).toBe(true);
    expect(avroSummaryOk({ ...summary, deadLetterSchemaIds: [] }, 120)).toBe(false);
  }, 30_000);
});
