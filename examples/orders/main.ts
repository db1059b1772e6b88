/**
 * `npm start`: the orders pipeline end to end. On the embedded cluster by
 * default; with KAFKA_BROKERS set, on that Kafka (with unique topic names).
 * ORDERS_COUNT sets the number of generated orders (default 10,000).
 */
import { pino } from 'pino';
import { formatSummary, runOrdersPipeline, summaryMatchesExpected } from './run-orders.js';

const brokers = process.env.KAFKA_BROKERS?.split(',').map((s) => s.trim()).filter(Boolean);
const count = Number(process.env.ORDERS_COUNT ?? 10_000);
const logger = pino({ level: process.env.LOG_LEVEL ?? 'error' });

console.log(`Generating ${count.toLocaleString('en-US')} orders over 3 partitions${brokers ? ` on Kafka ${brokers.join(',')}` : ' on the embedded cluster'}...`);
try {
  const summary = await runOrdersPipeline({ count, ...(brokers?.length ? { bootstrapServers: brokers } : {}), logger });
  console.log(formatSummary(summary));
  const ok = summaryMatchesExpected(summary);
  console.log(ok ? 'OK: every good output committed exactly once, every poison record dead-lettered.' : 'MISMATCH: see the expected counts above.');
  process.exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(`orders example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
setTimeout(() => process.exit(), 500).unref();
