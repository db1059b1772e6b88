/**
 * A versioned store in a running app on the embedded cluster (exactly-once):
 * a processor puts the `prices` records with their timestamps, out of order;
 * the app closes, its local state is wiped (`cleanUp()`), and a second run
 * restores the store from its changelog and answers `?<asOf>` queries (the
 * processor writes `get(key, asOf)` to `answers`) with the same history,
 * persistent (lmdb) and in memory alike. The changelog topic is compacted with
 * `min.compaction.lag.ms` = history retention + 24 h.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KafkaStreams, Serdes, Stores, Topology, type VersionedKeyValueStore } from '../../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../../src/testing.js';

const S = Serdes.String();

function topology(kind: 'persistent' | 'in-memory'): Topology {
  const supplier = kind === 'persistent' ? Stores.persistentVersionedKeyValueStore('prices', 10_000) : Stores.inMemoryVersionedKeyValueStore('prices', 10_000);
  return new Topology()
    .addSource('src', 'prices', { keySerde: S, valueSerde: S })
    .addProcessor('versions', () => {
      let store: VersionedKeyValueStore<string, string>;
      let context: { forward(record: unknown): void };
      return {
        init: (c) => {
          context = c;
          store = c.getStateStore('prices');
        },
        process: (record) => {
          const value = record.value as string;
          if (!value.startsWith('?')) return void store.put(record.key as string, value, record.timestamp);
          const answer = store.get(record.key as string, Number(value.slice(1)));
          context.forward(record.withValue(JSON.stringify(answer)));
        },
      };
    }, 'src')
    .addStateStore(Stores.versionedKeyValueStoreBuilder(supplier, S, S), 'versions')
    .addSink('answers', 'answers', { keySerde: S, valueSerde: S }, 'versions');
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out');
}

describe.each(['persistent', 'in-memory'] as const)('a %s versioned store in an app on the embedded cluster', (kind) => {
  it('is restored from its changelog after the local state is wiped: the same history answers', async () => {
    const cluster = new EmbeddedKafkaCluster();
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-versioned-'));
    const config = { applicationId: `versioned-${kind}`, cluster, stateDir, processingGuarantee: 'exactly_once' as const };
    try {
      await cluster.createTopic('prices', { partitions: 2 });
      await cluster.createTopic('answers', { partitions: 2 });
      await cluster.produce('prices', [
        { key: 'apple', value: '1.00', timestamp: 100 },
        { key: 'apple', value: '1.20', timestamp: 300 },
        { key: 'apple', value: '1.10', timestamp: 200 },
        { key: 'pear', value: '2.00', timestamp: 150 },
        { key: 'pear', value: '2.50', timestamp: 50 },
      ]);
      const first = new KafkaStreams(topology(kind), config);
      await first.start();
      await waitFor(async () => (await cluster.committedOffsets(config.applicationId, 'prices')).reduce((a, b) => a + Math.max(0, b), 0) === 5);
      await first.close();
      first.cleanUp();

      const changelog = await cluster.describeTopic(`${config.applicationId}-prices-changelog`);
      expect(changelog.config).toMatchObject({ 'cleanup.policy': 'compact', 'min.compaction.lag.ms': String(10_000 + 86_400_000) });

      const queries = [['apple', 150], ['apple', 250], ['apple', 1000], ['apple', 50], ['pear', 100], ['pear', 40]] as const;
      await cluster.produce('prices', queries.map(([key, asOf]) => ({ key, value: `?${asOf}`, timestamp: 400 })));
      const second = new KafkaStreams(topology(kind), config);
      await second.start();
      await waitFor(async () => (await cluster.readCommitted('answers')).length === queries.length);
      await second.close();
      const byKey = (key: string) => (async () => (await cluster.readCommitted('answers')).filter((r) => r.key?.toString() === key).map((r) => JSON.parse(r.value!.toString()) as unknown))();
      expect(await byKey('apple')).toEqual([
        { value: '1.00', timestamp: 100, validTo: 200 },
        { value: '1.10', timestamp: 200, validTo: 300 },
        { value: '1.20', timestamp: 300 },
        null,
      ]);
      expect(await byKey('pear')).toEqual([{ value: '2.50', timestamp: 50, validTo: 150 }, null]);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
      await cluster.close();
    }
  });
});
