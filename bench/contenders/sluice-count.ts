/**
 * Contender "sluice exactly_once count" (issue #15): count per key,
 * `stream(input).groupByKey().count().toStream().to(output, Long serde)`,
 * exactly_once, every other setting default (the DSL's default store, the
 * default record cache), state in the run's fresh `--state-dir`.
 * Usage: node bench/contenders/sluice-count.js --brokers B --group G --input I --output O --state-dir D
 */
import { contenderArgs, emit, markFirst, onStop } from './common.js';
import { createApp, loadSluice } from './sluice-stateful.js';

async function main(): Promise<void> {
  const args = contenderArgs();
  const sluice = await loadSluice();
  const { StreamsBuilder, Serdes } = sluice;
  const builder = new StreamsBuilder();
  builder
    .stream(args.input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .peek(() => markFirst())
    .groupByKey()
    .count()
    .toStream()
    .to(args.output, { keySerde: Serdes.String(), valueSerde: Serdes.Long() });
  const app = createApp(sluice, builder.build(), {
    applicationId: args.group,
    bootstrapServers: args.brokers,
    processingGuarantee: 'exactly_once',
  }, args.stateDir, false);
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
