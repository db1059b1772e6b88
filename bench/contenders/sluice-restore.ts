/**
 * Contenders "restore sluice in-memory" / "restore sluice persistent"
 * (issue #15): a fresh instance (empty `--state-dir`) of
 * `stream(input).groupByKey().reduce((old, v) => v)` into the store
 * `restore-store`, whose changelog `<applicationId>-restore-store-changelog`
 * the runner filled beforehand, restores all of it. A global
 * StateRestoreListener reports every partition's start and end; once the app
 * is RUNNING the store is read back (entry count, the sample keys' values).
 * Usage: node bench/contenders/sluice-restore.js --brokers B --group G --input I --output - --state-dir D --store in-memory|persistent --samples k0,k5
 */
import { RESTORE_STORE } from '../lib/stateful-workload.js';
import { contenderArgs, emit, onStop } from './common.js';
import { createApp, loadSluice, type AppLike, type MaterializedLike, type StatefulSluice } from './sluice-stateful.js';

/** Why this sluice build cannot run the restore benchmark yet (issue #15 not merged). */
const NOT_YET = 'the restore benchmark needs the durable state stores of issue #15 (changelogs, restoration, persistent stores), not merged into this build';

function supplierOf(sluice: StatefulSluice, store: string | undefined): unknown {
  if (store === 'in-memory') return sluice.Stores.inMemoryKeyValueStore(RESTORE_STORE);
  if (store !== 'persistent') throw new Error(`--store must be in-memory or persistent, got ${store ?? '(none)'}`);
  if (typeof sluice.Stores.persistentKeyValueStore !== 'function') throw new Error(`sluice has no Stores.persistentKeyValueStore yet: ${NOT_YET}`);
  return sluice.Stores.persistentKeyValueStore(RESTORE_STORE);
}

/** When the restore listener last reported something (the store may stay unqueryable while a restore goes on). */
let lastRestoreEvent = Date.now();

/**
 * Reads the restored store back and reports it, retrying while it is not
 * queryable yet (RUNNING may come before every task restored): at most 120 s
 * after the restore listener's last call.
 */
async function reportStore(sluice: StatefulSluice, app: AppLike, samples: string[]): Promise<void> {
  if (typeof app.store !== 'function' || !sluice.QueryableStoreTypes) throw new Error(`sluice has no app.store / QueryableStoreTypes yet: ${NOT_YET}`);
  const started = Date.now();
  for (;;) {
    const deadline = Math.max(started, lastRestoreEvent) + 120_000;
    try {
      const store = app.store({ storeName: RESTORE_STORE, queryableStoreType: sluice.QueryableStoreTypes.keyValueStore() });
      let entries = 0;
      const all = store.all();
      if (Symbol.asyncIterator in all) for await (const _ of all) entries++;
      else for (const _ of all) entries++;
      const values: Record<string, unknown> = {};
      for (const k of samples) values[k] = await store.get(k);
      emit('store', { entries, samples: values });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the restored store could not be read: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function main(): Promise<void> {
  const args = contenderArgs();
  const sluice = await loadSluice();
  const { StreamsBuilder, Serdes } = sluice;
  const materialized: MaterializedLike = { storeName: RESTORE_STORE, storeSupplier: supplierOf(sluice, args.store), keySerde: Serdes.String(), valueSerde: Serdes.String() };
  const builder = new StreamsBuilder();
  builder
    .stream(args.input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .groupByKey()
    .reduce((_old, value) => value, materialized);
  const app = createApp(sluice, builder.build(), {
    applicationId: args.group,
    bootstrapServers: args.brokers,
    processingGuarantee: 'exactly_once',
  }, args.stateDir, true);
  if (typeof app.setGlobalStateRestoreListener !== 'function') throw new Error(`sluice has no KafkaStreams.setGlobalStateRestoreListener yet: ${NOT_YET}`);
  app.setGlobalStateRestoreListener({
    onRestoreStart: (tp, store, start, end) => {
      lastRestoreEvent = Date.now();
      emit('restore-start', { partition: tp.partition, store, start, end });
    },
    onBatchRestored: () => void (lastRestoreEvent = Date.now()),
    onRestoreEnd: (tp, store, totalRestored) => {
      lastRestoreEvent = Date.now();
      emit('restore-end', { partition: tp.partition, store, totalRestored });
    },
  });
  onStop(async () => {
    emit('metrics', { metrics: app.metrics() });
    await app.close();
  });
  await app.start();
  emit('running');
  await reportStore(sluice, app, args.samples);
}

main().catch((err: unknown) => {
  emit('error', { message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
