/**
 * Contender "sluice exactly_once windowed count" (issue 17): count per key and
 * 1-minute tumbling window, final results only (bench/lib/windowed-workload.ts),
 *
 *   stream(input).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(60_000)).count()
 *     .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())).toStream()
 *     .to(output, WindowedSerdes.timeWindowedSerdeFrom(String, 60_000), Long)
 *
 * exactly_once, every other setting default (the DSL's default window store,
 * the default record cache), state in the run's fresh `--state-dir`.
 *
 * Experiments only: SLUICE_BENCH_WINDOWED_EMIT=onWindowClose writes the final
 * results with `emitStrategy(EmitStrategy.onWindowClose())` instead of the
 * suppression (its window store kept for an hour: the input's event time runs
 * ten minutes ahead within the run, and with the default retention windows
 * would expire between two emissions); the run then notes it.
 * Usage: node bench/contenders/sluice-windowed-count.js --brokers B --group G --input I --output O --state-dir D
 */
import { WINDOW_MS } from '../lib/windowed-workload.js';
import { contenderArgs, emit, markFirst, onStop } from './common.js';
import { createApp, loadSluice } from './sluice-stateful.js';

async function main(): Promise<void> {
  const args = contenderArgs();
  const sluice = await loadSluice();
  const { StreamsBuilder, Serdes, TimeWindows, Suppressed, BufferConfig, WindowedSerdes } = sluice;
  if (TimeWindows === undefined) throw new Error("sluice has no TimeWindows yet: windowed aggregations (issue 17) are not merged into this build");
  const builder = new StreamsBuilder();
  const windowed = builder
    .stream(args.input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .peek(() => markFirst())
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_MS));
  const emitStrategy = process.env['SLUICE_BENCH_WINDOWED_EMIT'] === 'onWindowClose';
  if (emitStrategy) emit('note', { message: 'final results by emitStrategy(EmitStrategy.onWindowClose()) (SLUICE_BENCH_WINDOWED_EMIT), not suppress(untilWindowCloses)' });
  const counts = emitStrategy
    ? windowed.emitStrategy(sluice.EmitStrategy.onWindowClose()).count(sluice.Materialized.with(Serdes.String(), Serdes.Long()).withRetention(3_600_000))
    : windowed.count().suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()));
  counts
    .toStream()
    .to(args.output, { keySerde: WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), WINDOW_MS), valueSerde: Serdes.Long() });
  const app = createApp(sluice, builder.build(), {
    applicationId: args.group,
    bootstrapServers: args.brokers,
    processingGuarantee: 'exactly_once',
  }, args.stateDir, true);
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
