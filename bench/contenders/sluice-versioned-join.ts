/**
 * Contender "sluice exactly_once versioned-table join" (issue 30): orders joined
 * with a prices table materialized on a versioned store, each as of its
 * timestamp (bench/lib/versioned-join-workload.ts),
 *
 *   prices = builder.table(<group>-prices, Materialized.as(Stores.persistentVersionedKeyValueStore('prices-versioned', 1 h)))
 *   builder.stream(input).join(prices, (value, price) => `${price}|${value}`).to(output)
 *
 * exactly_once, every other setting default, state in the run's `--state-dir`
 * (the runner starts it twice: once to load the table, then for the timed run
 * on a fresh directory, restoring the table from its changelog).
 * Usage: node bench/contenders/sluice-versioned-join.js --brokers B --group G --input I --output O --state-dir D
 */
import { PRICES_RETENTION_MS, PRICES_STORE, pricesTopic } from '../lib/versioned-join-workload.js';
import { contenderArgs, emit, markFirst, onStop } from './common.js';
import { createApp, loadSluice, type SerdeLike } from './sluice-stateful.js';

/** The part of sluice's DSL this contender uses besides sluice-stateful.ts's. */
interface VersionedSluice {
  StreamsBuilder: new () => {
    table(topic: string, consumed: { keySerde: SerdeLike; valueSerde: SerdeLike }, materialized: unknown): unknown;
    stream(topic: string, consumed: { keySerde: SerdeLike; valueSerde: SerdeLike }): {
      peek(fn: () => void): { join(table: unknown, joiner: (value: string, price: string) => string): { to(topic: string, produced: { keySerde: SerdeLike; valueSerde: SerdeLike }): void } };
    };
    build(): unknown;
  };
  Stores: { persistentVersionedKeyValueStore?(name: string, historyRetentionMs: number): unknown };
  Materialized: { as(supplier: unknown): unknown };
}

async function main(): Promise<void> {
  const args = contenderArgs();
  const sluice = await loadSluice();
  const { StreamsBuilder, Stores, Materialized } = sluice as unknown as VersionedSluice;
  if (Stores.persistentVersionedKeyValueStore === undefined) throw new Error('sluice has no Stores.persistentVersionedKeyValueStore yet: versioned stores (issue 30) are not merged into this build');
  const S = sluice.Serdes.String();
  const builder = new StreamsBuilder();
  const prices = builder.table(pricesTopic(args.group), { keySerde: S, valueSerde: S }, Materialized.as(Stores.persistentVersionedKeyValueStore(PRICES_STORE, PRICES_RETENTION_MS)));
  builder
    .stream(args.input, { keySerde: S, valueSerde: S })
    .peek(() => markFirst())
    .join(prices, (value, price) => `${price}|${value}`)
    .to(args.output, { keySerde: S, valueSerde: S });
  const app = createApp(sluice, builder.build(), { applicationId: args.group, bootstrapServers: args.brokers, processingGuarantee: 'exactly_once' }, args.stateDir, true);
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
