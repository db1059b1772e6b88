/**
 * Contender "sluice": the benchmark pipeline on sluice's KafkaStreams
 * (API.md "Running it"), processing guarantee from `--guarantee`, stream
 * threads from `--threads` (default 1).
 * Usage: node --import tsx bench/contenders/sluice-app.ts --brokers B --group G --input I --output O --guarantee exactly_once|at_least_once [--threads N]
 *
 * With `--threads N` (N > 1) the app runs `numStreamThreads: N`: thread 1 here,
 * threads 2..N on worker threads that import sluice-app-module.ts (its
 * `streamThreadModule`) and rebuild the same topology from the same argv.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KafkaStreams } from '../../src/index.js';
import { contenderArgs, emit, onStop } from './common.js';
import { benchTopology } from './sluice-app-module.js';

type StreamsConfig = ConstructorParameters<typeof KafkaStreams>[1];

/** The stream thread module next to this file: `.ts` under tsx, `.js` in the tsc-compiled tree (bench/lib/compile.ts). */
function threadModulePath(): string {
  const self = fileURLToPath(import.meta.url);
  return fileURLToPath(new URL(`./sluice-app-module${extname(self)}`, import.meta.url));
}

async function main(): Promise<void> {
  const args = contenderArgs();
  // Experiments only: SLUICE_BENCH_CONFIG='{"maxPendingOutputRecordsPerTask":1000}' adds settings (the table uses defaults).
  const extra = JSON.parse(process.env['SLUICE_BENCH_CONFIG'] ?? '{}') as Record<string, unknown>;
  // 1 thread: no thread keys at all (the config of the single-process rows stays what it was).
  const threads = args.threads > 1 ? { numStreamThreads: args.threads, streamThreadModule: threadModulePath() } : {};
  const config: StreamsConfig = {
    ...(extra as Partial<StreamsConfig>),
    ...threads,
    applicationId: args.group,
    bootstrapServers: args.brokers,
    processingGuarantee: args.guarantee as StreamsConfig['processingGuarantee'],
  };
  const app = new KafkaStreams(benchTopology(args), config);
  onStop(async () => {
    // threadTasks: the active tasks of each stream thread (the threads rows: every thread did its share)
    emit('metrics', { metrics: { ...app.metrics(), threadTasks: app.metadataForLocalThreads().map((t) => t.activeTasks.length) } });
    await app.close();
  });
  await app.start();
  emit('running');
}

main().catch((err: unknown) => {
  emit('error', { message: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) });
  process.exit(1);
});
