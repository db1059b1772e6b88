/**
 * `npm run example:avro`: Avro orders on the embedded cluster with the
 * in-process Schema Registry (see run-avro.ts). AVRO_ORDERS sets the number
 * of orders (default 1000). The last line starts with `OK` when every order
 * total was written once and both poison records were dead-lettered.
 */
import { avroSummaryOk, runAvroOrders } from './run-avro.js';

const count = Number(process.env.AVRO_ORDERS ?? 1000);
console.log(`Avro orders: ${count} orders (half schema v1, half v2) and 2 poison records, embedded cluster + in-process Schema Registry...`);
try {
  const s = await runAvroOrders({ count });
  console.log(`registry subjects: ${Object.entries(s.subjects).map(([k, v]) => `${k} [versions ${v.join(',')}]`).join(', ')}`);
  console.log(`read ${s.ordersV1} v1 + ${s.ordersV2} v2 orders into v2; wrote ${s.totals} Avro order totals (${s.totalsMatch ? 'all as computed' : 'NOT as computed'})`);
  console.log(`dead-lettered ${s.deadLetters} records (schema id header: ${s.deadLetterSchemaIds.join(', ') || 'none'})`);
  const ok = avroSummaryOk(s, count);
  console.log(ok ? 'OK: every order total written once in the Confluent wire format, both poison records dead-lettered.' : 'MISMATCH: see the counts above.');
  process.exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(`avro example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
setTimeout(() => process.exit(), 500).unref();
