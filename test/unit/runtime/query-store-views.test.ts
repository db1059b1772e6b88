/**
 * Issue 30 items 1 and 4 on a real app (embedded cluster, one partition,
 * 127.0.0.1): the read-only views `app.store()` gives of window, session and
 * versioned stores (every method, against counts worked out by hand), and the
 * query server's routes over them, each parameter checked (a 400 naming it).
 *
 * Input: 'a' at 10, 20 and 1500, 'b' at 30 → 1-second windows a@0 = 2,
 * a@1000 = 1, b@0 = 1; sessions (gap 100) a[10,20] = 2, a[1500,1500] = 1,
 * b[30,30] = 1. Versioned table: 'x' = '1' at 100, '2' at 200.
 */
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { IllegalArgumentError } from '../../../src/errors.js';
import { InvalidStateStoreError, QueryableStoreTypes } from '../../../src/runtime/interactive-queries.js';
import { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import { serveQueries, type QueryServer } from '../../../src/runtime/query-server.js';
import { MultiVersionedKeyQuery, VersionedKeyQuery } from '../../../src/runtime/versioned-queries.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { Stores } from '../../../src/state/stores.js';
import { Materialized } from '../../../src/topology/options.js';
import { SessionWindows } from '../../../src/topology/session-windows.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { TimeWindows } from '../../../src/topology/time-windows.js';
import { waitFor } from '../../helpers/index.js';

const S = Serdes.String();

function topology() {
  const builder = new StreamsBuilder();
  const grouped = builder.stream<string, string>('in', { keySerde: S, valueSerde: S }).groupByKey();
  grouped.windowedBy(TimeWindows.ofSizeAndGrace(1000, 100_000)).count(Materialized.as('w'));
  grouped.windowedBy(SessionWindows.ofInactivityGapAndGrace(100, 100_000)).count(Materialized.as('s'));
  builder.table('v-in', { keySerde: S, valueSerde: S }, Materialized.as(Stores.inMemoryVersionedKeyValueStore('v', 100_000)));
  return builder.build();
}

describe('interactive queries of window, session and versioned stores (issue 30)', () => {
  const cluster = new EmbeddedKafkaCluster();
  let app: KafkaStreams;
  let server: QueryServer;
  const get = (path: string): Promise<{ status: number; body: any }> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.address.port, path, agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
  const windows = () => app.store({ storeName: 'w', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() });
  const sessions = () => app.store({ storeName: 's', queryableStoreType: QueryableStoreTypes.sessionStore<string, number>() });
  const versioned = () => app.store({ storeName: 'v', queryableStoreType: QueryableStoreTypes.versionedKeyValueStore<string, string>() });

  beforeAll(async () => {
    for (const t of ['in', 'v-in']) await cluster.createTopic(t, { partitions: 1 });
    await cluster.produce('in', [
      { key: 'a', value: '1', timestamp: 10 },
      { key: 'a', value: '1', timestamp: 20 },
      { key: 'b', value: '1', timestamp: 30 },
      { key: 'a', value: '1', timestamp: 1500 },
    ]);
    await cluster.produce('v-in', [
      { key: 'x', value: '1', timestamp: 100 },
      { key: 'x', value: '2', timestamp: 200 },
    ]);
    app = new KafkaStreams(topology(), { applicationId: 'views', cluster, stateDir: mkdtempSync(join(tmpdir(), 'sluice-views-')), commitIntervalMs: 50, statestoreCacheMaxBytes: 0, applicationServer: '127.0.0.1:1' });
    await app.start();
    server = await serveQueries(app, { port: 0, host: '127.0.0.1', applicationServer: '127.0.0.1:1', verifyApplicationServer: false });
    await waitFor(() => {
      try {
        return windows().fetch('a', 1000) === 1 && sessions().fetch('b').length === 1 && versioned().get('x')?.value === '2';
      } catch {
        return false;
      }
    }, { timeoutMs: 15_000 });
  });
  afterAll(async () => {
    await server?.close();
    await app?.close();
    await cluster.close();
  });

  it('windowStore(): every ReadOnlyWindowStore read, timestamps dropped; timestampedWindowStore() keeps them', () => {
    const w = windows();
    expect(w.fetch('a', 0)).toBe(2);
    expect(w.fetch('a', 500)).toBeNull();
    expect(w.fetch('a', 0, 2000)).toEqual([{ key: 0, value: 2 }, { key: 1000, value: 1 }]);
    expect(w.backwardFetch('a', 0, 2000)).toEqual([{ key: 1000, value: 1 }, { key: 0, value: 2 }]);
    const win = (key: string, start: number, value: number) => ({ key: { key, window: { start, end: start + 1000 } }, value });
    expect(w.fetch('a', 'b', 0, 999)).toEqual([win('a', 0, 2), win('b', 0, 1)]);
    expect(w.backwardFetch('a', 'b', 0, 999)).toEqual([win('b', 0, 1), win('a', 0, 2)]);
    expect(w.fetchAll(0, 999)).toEqual([win('a', 0, 2), win('b', 0, 1)]);
    expect(w.all()).toEqual([win('a', 0, 2), win('b', 0, 1), win('a', 1000, 1)]);
    expect(w.backwardAll()).toEqual([win('a', 1000, 1), win('b', 0, 1), win('a', 0, 2)]);
    expect(w.backwardFetchAll(0, 2000)).toEqual(w.backwardAll());
    const timestamped = app.store({ storeName: 'w', queryableStoreType: QueryableStoreTypes.timestampedWindowStore<string, number>() });
    expect(timestamped.fetch('a', 0)).toEqual({ value: 2, timestamp: 20 });
  });

  it('sessionStore(): every ReadOnlySessionStore read', () => {
    const s = sessions();
    const session = (key: string, start: number, end: number, value: number) => ({ key: { key, window: { start, end } }, value });
    expect(s.fetch('a')).toEqual([session('a', 10, 20, 2), session('a', 1500, 1500, 1)]);
    expect(s.backwardFetch('a')).toEqual([session('a', 1500, 1500, 1), session('a', 10, 20, 2)]);
    expect(s.fetch('a', 'b')).toHaveLength(3);
    expect(s.findSessions('a', 0, 100)).toEqual([session('a', 10, 20, 2)]);
    expect(s.findSessions('a', 'b', 0, 100)).toEqual([session('a', 10, 20, 2), session('b', 30, 30, 1)]);
    expect(s.backwardFindSessions('a', 0, 2000)).toEqual([session('a', 1500, 1500, 1), session('a', 10, 20, 2)]);
    expect(s.fetchSession('a', 10, 20)).toBe(2);
    expect(s.fetchSession('a', 10, 21)).toBeNull();
  });

  it('versionedKeyValueStore(): get, get as of, and the two query objects; bad queries and wrong views refused', () => {
    const v = versioned();
    expect(v.get('x')).toEqual({ value: '2', timestamp: 200 });
    expect(v.get('x', 150)).toEqual({ value: '1', timestamp: 100, validTo: 200 });
    expect(v.get('x', new Date(150))).toEqual({ value: '1', timestamp: 100, validTo: 200 });
    expect(v.get('x', 50)).toBeNull();
    expect(v.get('nope')).toBeNull();
    expect(v.query(VersionedKeyQuery.withKey<string, string>('x').asOf(199))).toEqual({ value: '1', timestamp: 100, validTo: 200 });
    expect(v.query(MultiVersionedKeyQuery.withKey<string, string>('x'))).toEqual([{ value: '2', timestamp: 200 }, { value: '1', timestamp: 100, validTo: 200 }]);
    expect(v.query(MultiVersionedKeyQuery.withKey<string, string>('x').fromTime(150).withAscendingTimestamps())).toEqual([{ value: '1', timestamp: 100, validTo: 200 }, { value: '2', timestamp: 200 }]);
    expect(() => v.query(MultiVersionedKeyQuery.withKey<string, string>('x').fromTime(300).toTime(100))).toThrow(/fromTime 300 must not be after the toTime 100/);
    expect(() => VersionedKeyQuery.withKey(null)).toThrow(IllegalArgumentError);
    expect(() => MultiVersionedKeyQuery.withKey(undefined)).toThrow(/key cannot be null/);
    expect(() => VersionedKeyQuery.withKey('x').asOf(Number.NaN)).toThrow(/integer number of epoch milliseconds/);
    const wrong = (read: () => unknown): InvalidStateStoreError => {
      try {
        read();
      } catch (e) {
        return e as InvalidStateStoreError;
      }
      throw new Error('no error');
    };
    const asKeyValue = wrong(() => app.store({ storeName: 'v', queryableStoreType: QueryableStoreTypes.keyValueStore() }).get('x'));
    expect(asKeyValue).toBeInstanceOf(InvalidStateStoreError);
    expect(asKeyValue.reason).toBe('wrong-type');
    expect(asKeyValue.message).toMatch(/'v' is a versioned key-value store .*QueryableStoreTypes.versionedKeyValueStore\(\)/);
    expect(wrong(() => app.store({ storeName: 's', queryableStoreType: QueryableStoreTypes.windowStore() }).all()).message).toMatch(/'s' is a session store and cannot be read as a window view/);
    expect(wrong(() => app.store({ storeName: 'w', queryableStoreType: QueryableStoreTypes.sessionStore() }).fetch('a')).reason).toBe('wrong-type');
  });

  it('HTTP: a versioned key (latest, ?asOf=), its versions, a key\'s windows and sessions, and the gathered store routes', async () => {
    expect((await get('/stores/v/keys/x')).body).toMatchObject({ store: 'v', key: 'x', value: '2', timestamp: 200, partition: 0 });
    expect((await get('/stores/v/keys/x?asOf=150')).body).toMatchObject({ value: '1', timestamp: 100, validTo: 200 });
    const none = await get('/stores/v/keys/x?asOf=50');
    expect(none.status).toBe(404);
    expect(none.body.error).toMatch(/no version valid at 50 of key 'x'/);
    expect((await get('/stores/v/keys/x/versions?order=asc')).body.versions).toEqual([{ value: '1', timestamp: 100, validTo: 200 }, { value: '2', timestamp: 200 }]);
    expect((await get('/stores/v/keys/x/versions?limit=1')).body).toMatchObject({ versions: [{ value: '2', timestamp: 200 }], truncated: true });
    expect((await get('/stores/w/keys/a/windows?from=0&to=999')).body.windows).toEqual([{ start: 0, end: 1000, value: 2 }]);
    expect((await get('/stores/w/keys/a/windows?order=desc')).body.windows).toEqual([{ start: 1000, end: 2000, value: 1 }, { start: 0, end: 1000, value: 2 }]);
    expect((await get('/stores/s/keys/a/sessions')).body.sessions).toEqual([{ start: 10, end: 20, value: 2 }, { start: 1500, end: 1500, value: 1 }]);
    expect((await get('/stores/s/keys/a/sessions?earliestSessionEnd=1000')).body.sessions).toEqual([{ start: 1500, end: 1500, value: 1 }]);
    expect((await get('/stores/w/windows?from=0&to=999')).body.entries).toEqual([{ key: 'a', start: 0, end: 1000, value: 2 }, { key: 'b', start: 0, end: 1000, value: 1 }]);
    expect((await get('/stores/w/windows?order=desc')).body.entries.map((e: { key: string; start: number }) => `${e.key}@${e.start}`)).toEqual(['b@0', 'a@1000', 'a@0']);
    expect((await get('/stores/s/sessions?keyFrom=b')).body.entries).toEqual([{ key: 'b', start: 30, end: 30, value: 1 }]);
    const stores = await get('/stores');
    expect(stores.body.stores.find((s: { name: string }) => s.name === 'v')).toMatchObject({ type: 'versioned', queryable: true });
    expect(stores.body.stores.find((s: { name: string }) => s.name === 's')).toMatchObject({ type: 'session', queryable: true });
  });

  it('HTTP: hostile parameters get a 400 naming the parameter; a route of another store kind a 400 naming the right one', async () => {
    for (const [path, parameter, message] of [
      ['/stores/v/keys/x?asOf=abc', 'asOf', /must be a time in epoch milliseconds, an integer from 0 to 8640000000000000; got 'abc'/],
      ['/stores/v/keys/x?asOf=-1', 'asOf', /integer from 0/],
      ['/stores/v/keys/x?asOf=99999999999999999', 'asOf', /integer from 0/],
      ['/stores/v/keys/x?asOf=1.5', 'asOf', /integer from 0/],
      ['/stores/v/keys/x?bogus=1', 'bogus', /is not taken by .*it takes 'asOf', 'redirect', 'stale'/],
      ['/stores/v/keys/x/versions?from=300&to=100', 'from', /\(300\) is after 'to' \(100\)/],
      ['/stores/v/keys/x/versions?from=1&from=2', 'from', /given twice/],
      ['/stores/v/keys/x/versions?order=up', 'order', /must be 'asc' or 'desc', got 'up'/],
      ['/stores/v/keys/x/versions?limit=0', 'limit', /integer from 1 to 10000/],
      ['/stores/v/keys/x/versions?limit=10001', 'limit', /integer from 1 to 10000/],
      ['/stores/w/keys/a/windows?to=x', 'to', /epoch milliseconds/],
      ['/stores/w/windows?keyFrom=a&local=true&extra=1', 'extra', /is not taken by GET \/stores\/<store>\/windows/],
      [`/stores/w/windows?keyFrom=${'k'.repeat(5000)}`, 'keyFrom', /5000 characters long; at most 4096/],
      ['/stores/s/sessions?earliestSessionEnd=1e3', 'earliestSessionEnd', /epoch milliseconds/],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(r.body.parameter, path).toBe(parameter);
      expect(r.body.error, path).toMatch(message);
    }
    const wrongKind = await get('/stores/w/keys/a/versions');
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error).toMatch(/'w' is a timestamped window store and cannot be read as a versioned view: .*GET \/stores\/w\/keys\/<key>\/windows/);
    expect((await get('/stores/v/keys/x/windows')).status).toBe(400);
    expect((await get('/stores/w/keys/a/nope')).status).toBe(404);
    expect((await get('/stores/w/nope')).status).toBe(404);
  });
});
