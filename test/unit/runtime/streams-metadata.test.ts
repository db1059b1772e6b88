/** Key metadata from the assignor's user data (src/runtime/internal/streams-metadata-state.ts) and its config. */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { StreamsMetadataState } from '../../../src/runtime/internal/streams-metadata-state.js';
import { KeyQueryMetadata, UnknownStateStoreError } from '../../../src/runtime/streams-metadata.js';
import { encodeAssignment } from '../../../src/assignment/user-data.js';
import { partitionFor } from '../../../src/records/partitioner.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { ConfigError } from '../../../src/errors.js';

const counts: Record<string, number> = { orders: 6, payments: 6, narrow: 2 };

function state(applicationServer?: string) {
  return new StreamsMetadataState(
    {
      // sub-topology 0 reads orders + narrow (store 'totals'); 1 reads payments (stores 'seen', 'sums')
      subtopologies: [{ id: 0, sourceTopics: ['narrow', 'orders'] }, { id: 1, sourceTopics: ['payments'] }],
      storesBySubtopology: new Map([[0, ['totals']], [1, ['seen', 'sums']]]),
      globalStores: ['rates'],
      partitionCount: (t) => counts[t],
    },
    applicationServer,
  );
}

const tp = (topic: string, partition: number) => ({ topic, partition });
const assignment = encodeAssignment({
  activeTasks: [],
  standbyTasks: [],
  partitionsByHost: [
    { host: 'a:1', partitions: [0, 1, 2].flatMap((p) => [tp('orders', p), tp('payments', p)]).concat([tp('narrow', 0), tp('narrow', 1)]) },
    { host: 'b:2', partitions: [3, 4, 5].map((p) => tp('orders', p)) },
    { host: 'c:3', partitions: [3, 4, 5].map((p) => tp('payments', p)) },
  ],
  standbyPartitionsByHost: [],
});
const logger = pino({ level: 'silent' });

describe('key metadata', () => {
  it('is NOT_AVAILABLE before the first assignment', () => {
    expect(state().keyMetadata('totals', 'k', Serdes.String())).toBe(KeyQueryMetadata.NOT_AVAILABLE);
    expect(state().all()).toEqual([]);
  });

  it("names the host of the key's partition of the store's widest source topic (murmur2, as the producer)", () => {
    const s = state();
    s.updateFrom(assignment, logger);
    for (const key of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']) {
      const p = partitionFor(Buffer.from(key), 6);
      const meta = s.keyMetadata('totals', key, Serdes.String());
      expect(meta.partition).toBe(p);
      expect(meta.activeHost).toEqual(p < 3 ? { host: 'a', port: 1 } : { host: 'b', port: 2 });
      expect(meta.standbyHosts).toEqual([]);
      expect(s.keyMetadata('sums', key, Serdes.String()).activeHost).toEqual(p < 3 ? { host: 'a', port: 1 } : { host: 'c', port: 3 });
    }
  });

  it("lists each host's stores (its tasks' and every global store) and partitions", () => {
    const s = state();
    s.updateFrom(assignment, logger);
    const byHost = new Map(s.all().map((m) => [`${m.host}:${m.port}`, m]));
    expect(byHost.get('a:1')?.stateStoreNames).toEqual(['rates', 'seen', 'sums', 'totals']);
    expect(byHost.get('b:2')?.stateStoreNames).toEqual(['rates', 'totals']);
    expect(byHost.get('c:3')?.stateStoreNames).toEqual(['rates', 'seen', 'sums']);
    expect(byHost.get('b:2')?.topicPartitions).toEqual([3, 4, 5].map((p) => tp('orders', p)));
    expect(byHost.get('c:3')?.hostInfo).toEqual({ host: 'c', port: 3 });
    expect(s.forStore('seen').map((m) => m.host).sort()).toEqual(['a', 'c']);
    expect(s.forStore('rates')).toHaveLength(3);
  });

  it('answers a global store with the local host', () => {
    const s = state('me:9');
    s.updateFrom(assignment, logger);
    expect(s.keyMetadata('rates', 'x', Serdes.String())).toEqual({ activeHost: { host: 'me', port: 9 }, standbyHosts: [], partition: -1 });
  });

  it('refuses an unknown store, naming the stores', () => {
    const s = state();
    expect(() => s.keyMetadata('nope', 'k', Serdes.String())).toThrow(UnknownStateStoreError);
    expect(() => s.forStore('nope')).toThrow("No state store 'nope' in the topology; its stores are: 'rates', 'seen', 'sums', 'totals'");
  });

  it('keeps its previous view when the user data cannot be decoded', () => {
    const s = state();
    s.updateFrom(assignment, logger);
    s.updateFrom(Buffer.from('junk'), logger);
    expect(s.all()).toHaveLength(3);
  });
});

describe('applicationServer and acceptableRecoveryLag config', () => {
  const cluster = new EmbeddedKafkaCluster();
  const base = { applicationId: 'app', cluster };

  it('accepts host:port and [ipv6]:port, defaults the lag to 10000', () => {
    expect(resolveConfig({ ...base, applicationServer: 'orders-1.internal:7070' }).applicationServer).toBe('orders-1.internal:7070');
    expect(resolveConfig({ ...base, applicationServer: '[::1]:7070' }).applicationServer).toBe('[::1]:7070');
    expect(resolveConfig(base).applicationServer).toBeUndefined();
    expect(resolveConfig(base).acceptableRecoveryLag).toBe(10_000);
    expect(resolveConfig({ ...base, acceptableRecoveryLag: 0 }).acceptableRecoveryLag).toBe(0);
  });

  it.each(['localhost', 'localhost:', ':7070', 'host:0', 'host:70000', 'host:port', 'a b:1', 'http://host:1'])('refuses applicationServer %j naming the key and the form', (value) => {
    expect(() => resolveConfig({ ...base, applicationServer: value })).toThrow(ConfigError);
    expect(() => resolveConfig({ ...base, applicationServer: value })).toThrow(/Config 'applicationServer' must be 'host:port'/);
  });

  it('refuses a non-string applicationServer and a bad acceptableRecoveryLag', () => {
    expect(() => resolveConfig({ ...base, applicationServer: 7070 as unknown as string })).toThrow(/applicationServer.*7070 is not a string/);
    expect(() => resolveConfig({ ...base, acceptableRecoveryLag: -1 })).toThrow(/Config 'acceptableRecoveryLag' must be a whole number/);
    expect(() => resolveConfig({ ...base, acceptableRecoveryLag: 1.5 })).toThrow(ConfigError);
  });
});

describe('key metadata with standby replicas', () => {
  // a:1 runs orders 0-2 active and has standbys of orders 3-5; b:2 the other way round; d:4 holds standbys only
  const withStandbys = encodeAssignment({
    activeTasks: [],
    standbyTasks: [],
    partitionsByHost: [
      { host: 'a:1', partitions: [0, 1, 2].map((p) => tp('orders', p)) },
      { host: 'b:2', partitions: [3, 4, 5].map((p) => tp('orders', p)) },
    ],
    standbyPartitionsByHost: [
      { host: 'a:1', partitions: [3, 4, 5].map((p) => tp('orders', p)) },
      { host: 'b:2', partitions: [0, 1, 2].map((p) => tp('orders', p)) },
      { host: 'd:4', partitions: [0, 3].map((p) => tp('orders', p)) },
    ],
  });

  it("names the standby hosts of the key's partition next to its active host", () => {
    const s = state();
    s.updateFrom(withStandbys, logger);
    for (const key of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']) {
      const p = partitionFor(Buffer.from(key), 6);
      const meta = s.keyMetadata('totals', key, Serdes.String());
      expect(meta.activeHost).toEqual(p < 3 ? { host: 'a', port: 1 } : { host: 'b', port: 2 });
      const standbys = [p < 3 ? { host: 'b', port: 2 } : { host: 'a', port: 1 }, ...(p === 0 || p === 3 ? [{ host: 'd', port: 4 }] : [])];
      expect(meta.standbyHosts).toEqual(standbys);
    }
  });

  it('lists standby stores and partitions per host; a standby-only host holds the store too', () => {
    const s = state();
    s.updateFrom(withStandbys, logger);
    const d = s.all().find((m) => m.host === 'd');
    expect(d?.stateStoreNames).toEqual(['rates']);
    expect(d?.standbyStateStoreNames).toEqual(['totals']);
    expect(d?.standbyTopicPartitions).toEqual([tp('orders', 0), tp('orders', 3)]);
    expect(s.forStore('totals').map((m) => m.host).sort()).toEqual(['a', 'b', 'd']);
  });
});
