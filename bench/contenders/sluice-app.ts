/**
 * Contender "sluice": the benchmark pipeline on sluice's KafkaStreams
 * (API.md "Running it"), processing guarantee from `--guarantee`.
 * Usage: node --import tsx bench/contenders/sluice-app.ts --brokers B --group G --input I --output O --guarantee exactly_once|at_least_once
 *
 * sluice is loaded dynamically through the small structural interface below, so
 * the benchmark keeps compiling while the runtime is being built.
 */
import { enrich, keep, parse, type InputValue } from '../lib/workload.js';
import { contenderArgs, emit, markFirst, onStop } from './common.js';

interface SerdeLike {
  serialize(topic: string, data: unknown): Buffer | null;
  deserialize(topic: string, data: Buffer | null): unknown;
}
interface StreamLike<V> {
  peek(fn: (key: string, value: V) => void): StreamLike<V>;
  filter(fn: (key: string, value: V) => boolean): StreamLike<V>;
  mapValues<W>(fn: (value: V) => W): StreamLike<W>;
  to(topic: string, options: { keySerde: SerdeLike; valueSerde: SerdeLike }): void;
}
interface SluiceLike {
  StreamsBuilder: new () => {
    stream<K, V>(topic: string, options: { keySerde: SerdeLike; valueSerde: SerdeLike }): StreamLike<V> & { __key?: K };
    build(): unknown;
  };
  KafkaStreams: new (
    topology: unknown,
    config: { applicationId: string; bootstrapServers: string[]; processingGuarantee: string; [key: string]: unknown },
  ) => { start(): Promise<void>; close(): Promise<void>; metrics(): Record<string, unknown> };
  Serdes: { String(): SerdeLike };
}

async function main(): Promise<void> {
  const args = contenderArgs();
  const sluice = (await import('../../src/index.js')) as unknown as SluiceLike;
  const { StreamsBuilder, KafkaStreams, Serdes } = sluice;
  const serdes = { keySerde: Serdes.String(), valueSerde: Serdes.String() };
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(args.input, serdes)
    .peek(() => markFirst())
    .mapValues((value: string): InputValue => parse(value))
    .filter((_key, value) => keep(value))
    .mapValues((value) => JSON.stringify(enrich(value)))
    .to(args.output, serdes);
  // Experiments only: SLUICE_BENCH_CONFIG='{"maxPendingOutputRecordsPerTask":1000}' adds settings (the table uses defaults).
  const extra = JSON.parse(process.env['SLUICE_BENCH_CONFIG'] ?? '{}') as Record<string, unknown>;
  const app = new KafkaStreams(builder.build(), {
    ...extra,
    applicationId: args.group,
    bootstrapServers: args.brokers,
    processingGuarantee: args.guarantee,
  });
  onStop(async () => {
    emit('metrics', { metrics: app.metrics() });
    await app.close();
  });
  await app.start();
  emit('running');
}

main().catch((err: unknown) => {
  emit('error', { message: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
  process.exit(1);
});
