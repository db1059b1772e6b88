/**
 * Contender "@kafkats/flow" (issue 18's Node peer): the benchmark pipeline on
 * @kafkats/flow's Kafka Streams-like DSL with its own client (@kafkats/client),
 * processing guarantee from `--guarantee` (exactly_once | at_least_once).
 * Same topology as sluice-app.ts: stream(input, string key/value) → peek (first
 * record) → mapValues(parse) → filter(keep) → mapValues(stringify(enrich)) →
 * to(output, string key/value). Every other setting is the library's default
 * (commit interval 100 ms under exactly_once, one stream thread), except
 * `autoOffsetReset: 'earliest'`, which every contender needs to read the
 * pre-loaded input (kafkajs' `fromBeginning`, Kafka Streams' default).
 * Usage: node --import tsx bench/contenders/kafkats-flow.ts --brokers B --group G --input I --output O --guarantee exactly_once|at_least_once
 */
import { KafkaClient } from '@kafkats/client';
import { codec, flow, type FlowConfig } from '@kafkats/flow';
import { enrich, keep, parse, type InputValue } from '../lib/workload.js';
import { contenderArgs, emit, markFirst, onStop } from './common.js';

async function main(): Promise<void> {
  const args = contenderArgs();
  if (args.guarantee !== 'exactly_once' && args.guarantee !== 'at_least_once') {
    throw new Error(`--guarantee: exactly_once or at_least_once, got ${args.guarantee}`);
  }
  const client = new KafkaClient({ brokers: args.brokers, clientId: `${args.group}-client`, logLevel: 'error' });
  // Experiments only: KAFKATS_BENCH_CONFIG='{"runEach":{"partitionConcurrency":8}}' adds settings (the table uses defaults).
  const extra = JSON.parse(process.env['KAFKATS_BENCH_CONFIG'] ?? '{}') as Partial<FlowConfig>;
  const app = flow({
    ...extra,
    applicationId: args.group,
    client,
    processingGuarantee: args.guarantee,
    consumer: { ...extra.consumer, autoOffsetReset: 'earliest' },
  });
  const serdes = { key: codec.string(), value: codec.string() };
  app
    .stream<string, string>(args.input, { ...serdes, offsetReset: 'earliest' })
    .peek(() => markFirst())
    .mapValues((value): InputValue | null => (value === null ? null : parse(value)))
    .filter((_key, value) => value !== null && keep(value))
    .mapValues((value) => (value === null ? null : JSON.stringify(enrich(value))))
    .to(args.output, serdes);
  onStop(async () => {
    await app.close();
    await client.disconnect().catch(() => undefined);
  });
  await app.start();
  emit('running');
}

main().catch((err: unknown) => {
  emit('error', { message: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
  process.exit(1);
});
