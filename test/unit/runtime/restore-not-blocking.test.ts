/**
 * A task that restores does not hold up the other tasks of the instance
 * (issue 15 item 4): while the stateful sub-topology's store restores slowly
 * from its changelog, the stateless sub-topology of the same app already
 * processes; the app is REBALANCING and a query of the restoring store is a
 * clear InvalidStateStoreError; once restored, the app is RUNNING and the
 * counts continue.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClusterPort, PartitionReaderPort } from '../../../src/cluster/port.js';
import { InvalidStateStoreError, KafkaStreams, Materialized, QueryableStoreTypes, Serdes, Stores, StreamsBuilder } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';
import { waitFor } from '../../helpers/index.js';

const S = Serdes.String();

function topology() {
  const b = new StreamsBuilder();
  b.stream<string, string>('counted', { keySerde: S, valueSerde: S })
    .groupByKey()
    .count(Materialized.as<string, number>(Stores.inMemoryKeyValueStore('counts')))
    .toStream()
    .to('counts-out', { keySerde: S, valueSerde: Serdes.Long() });
  b.stream<string, string>('passed', { keySerde: S, valueSerde: S }).mapValues((v) => v.toUpperCase()).to('passed-out', { keySerde: S, valueSerde: S });
  return b.build();
}

/** The cluster, with every restore fetch held back `delayMs`. */
function slowRestores(cluster: EmbeddedKafkaCluster, delayMs: number): ClusterPort {
  return {
    kind: cluster.kind,
    admin: () => cluster.admin(),
    producer: (o) => cluster.producer(o),
    consumer: (o) => cluster.consumer(o),
    describeGroup: undefined,
    reader: (o): PartitionReaderPort => {
      const inner = cluster.reader(o);
      return {
        endOffsets: (t) => inner.endOffsets(t),
        fetch: async (tp, offset, options) => {
          await new Promise((r) => setTimeout(r, delayMs));
          return inner.fetch(tp, offset, { ...options, maxBytes: 64 });
        },
        close: () => inner.close(),
      };
    },
  } as ClusterPort;
}

describe('restoration does not block the other tasks', () => {
  it('the stateless task processes while the stateful one restores; the restoring store answers InvalidStateStoreError; counts continue after', async () => {
    const cluster = new EmbeddedKafkaCluster();
    try {
      for (const t of ['counted', 'counts-out', 'passed', 'passed-out']) await cluster.createTopic(t, { partitions: 1 });
      const applicationId = 'restore-not-blocking';
      await cluster.produce('counted', Array.from({ length: 40 }, (_, i) => ({ key: `k${i % 4}`, value: 'x' })));
      const first = new KafkaStreams(topology(), { applicationId, cluster, stateDir: mkdtempSync(join(tmpdir(), 'sluice-rnb-')), statestoreCacheMaxBytes: 0 });
      await first.start();
      await waitFor(async () => (await cluster.committedOffsets(applicationId, 'counted'))[0] === 40);
      await first.close();

      // Restart on the slow reader: 40 changelog records, every fetch held 3 s: seconds of restoration.
      const second = new KafkaStreams(topology(), { applicationId, cluster: slowRestores(cluster, 3000), stateDir: mkdtempSync(join(tmpdir(), 'sluice-rnb-')), statestoreCacheMaxBytes: 0 });
      let restoring = false;
      let restoredTotal = 0;
      second.setGlobalStateRestoreListener({ onRestoreStart: () => void (restoring = true), onRestoreEnd: (_tp, _s, total) => void ((restoring = false), (restoredTotal = total)) });
      const started = second.start();
      await waitFor(() => restoring, { timeoutMs: 10_000 });
      await cluster.produce('passed', [{ key: 'a', value: 'hello' }]);
      await waitFor(async () => (await cluster.readCommitted('passed-out')).length === 1, { timeoutMs: 10_000 });
      expect(restoring, 'the stateless output was committed while the store was still restoring').toBe(true);
      expect(second.state).toBe('REBALANCING');
      const view = second.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
      expect(() => view.get('k0')).toThrow(InvalidStateStoreError);
      expect(() => view.get('k0')).toThrow(/restoring it; retry shortly/);
      await started;
      expect(second.state).toBe('RUNNING');
      expect(restoredTotal).toBe(40);
      expect(view.get('k0')).toBe(10);
      await cluster.produce('counted', [{ key: 'k0', value: 'x' }]);
      await waitFor(() => view.get('k0') === 11, { timeoutMs: 10_000 });
      await second.close();
    } finally {
      await cluster.close();
    }
  }, 60_000);
});
