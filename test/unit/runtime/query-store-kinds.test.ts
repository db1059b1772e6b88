/**
 * Issue 28 items 3, 5, 6 and 13 on a real app (embedded cluster, 127.0.0.1):
 * - a plain key-value store holding `{ value, timestamp, ... }` objects answers
 *   them whole through `app.store()` and HTTP (values were unwrapped by shape);
 *   a timestamped store read as key-value is unwrapped (by its type);
 * - the keys `.`, `..` and the empty key are queried as keys over HTTP;
 * - a window store's key read as a key-value key answers 400 naming the route
 *   to use (was `500 store.get is not a function`), and answers its windows on
 *   that route (issue 30 item 4); `/stores` gives each store's type and lists no
 *   suppression buffer;
 * - a store queried before `start()`: an unknown name is named as unknown, a
 *   known one says the app is not started.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { InvalidStateStoreError, QueryableStoreTypes } from '../../../src/runtime/interactive-queries.js';
import { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import { serveQueries, type QueryServer } from '../../../src/runtime/query-server.js';
import { UnknownStateStoreError } from '../../../src/runtime/streams-metadata.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { Stores } from '../../../src/state/stores.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import { Materialized } from '../../../src/topology/options.js';
import { TimeWindows } from '../../../src/topology/time-windows.js';
import { BufferConfig, Suppressed } from '../../../src/topology/suppressed.js';
import type { KeyValueStore } from '../../../src/state/state-store.js';
import type { ProcessorContext } from '../../../src/processors/processor.js';
import type { Record } from '../../../src/processors/record.js';
import { waitFor } from '../../helpers/index.js';

const S = Serdes.String();
const OBJECT = { value: 'inner', timestamp: 7, note: 'kept whole' };

function topology() {
  const builder = new StreamsBuilder();
  const stream = builder.stream<string, string>('in', { keySerde: S, valueSerde: S });
  // a timestamped store ('latest') and a window store ('per-window') whose stream is suppressed (a buffer)
  stream.groupByKey().reduce((_a, b) => b, Materialized.as<string, string>('latest').withKeySerde(S).withValueSerde(S));
  stream
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeAndGrace(1000, 0))
    .count(Materialized.as<string, number>('per-window'))
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    .toStream()
    .to('closed', { keySerde: Serdes.String() as never, valueSerde: Serdes.Long() as never });
  const topology = builder.build();
  // a plain (not timestamped) key-value store holding JSON objects, written by a processor
  topology
    .addSource('objs-src', 'objs-in', { keySerde: S, valueSerde: S })
    .addProcessor(
      'objs-put',
      () => {
        let store: KeyValueStore<string, unknown> | undefined;
        return {
          init(context: ProcessorContext<unknown, unknown>) {
            store = context.getStateStore<KeyValueStore<string, unknown>>('objs');
          },
          process(record: Record<string, string>) {
            store?.put(record.key, JSON.parse(record.value));
          },
        };
      },
      'objs-src',
    )
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('objs'), S, Serdes.Json<unknown>()), 'objs-put');
  return topology;
}

describe('query API over a real app: store kinds and keys (issue 28)', () => {
  const cluster = new EmbeddedKafkaCluster();
  let app: KafkaStreams;
  let server: QueryServer;
  /** GET with node:http, which sends the path as written (fetch and curl would resolve `..` first). */
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

  beforeAll(async () => {
    for (const t of ['in', 'objs-in', 'closed']) await cluster.createTopic(t, { partitions: 1 });
    app = new KafkaStreams(topology(), { applicationId: 'kinds', cluster, stateDir: mkdtempSync(join(tmpdir(), 'sluice-kinds-')), processingGuarantee: 'at_least_once', commitIntervalMs: 50, statestoreCacheMaxBytes: 0, applicationServer: '127.0.0.1:1' });
    // item 13: before start(), an unknown store is named as such; a known one says the app is not started
    expect(() => app.store({ storeName: 'nope', queryableStoreType: QueryableStoreTypes.keyValueStore() })).toThrow(UnknownStateStoreError);
    expect(() => app.store({ storeName: 'nope', queryableStoreType: QueryableStoreTypes.keyValueStore() })).toThrow(/No state store 'nope'.*'latest'/);
    expect(() => app.store({ storeName: 'latest', queryableStoreType: QueryableStoreTypes.keyValueStore() }).get('a')).toThrow(/not started \(state CREATED\); call app.start\(\)/);
    await cluster.produce('objs-in', [
      { key: 'obj', value: JSON.stringify(OBJECT) },
      { key: '..', value: JSON.stringify('dot-dot') },
      { key: '.', value: JSON.stringify('dot') },
      { key: '', value: JSON.stringify('empty') },
    ]);
    await cluster.produce('in', [{ key: 'a', value: 'x', timestamp: 10 }]);
    await app.start();
    server = await serveQueries(app, { port: 0, host: '127.0.0.1', applicationServer: '127.0.0.1:1', verifyApplicationServer: false });
    await waitFor(() => {
      try {
        return app.store({ storeName: 'objs', queryableStoreType: QueryableStoreTypes.keyValueStore() }).approximateNumEntries() === 4 &&
          app.store({ storeName: 'latest', queryableStoreType: QueryableStoreTypes.keyValueStore() }).get('a') === 'x';
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

  it('item 3: a stored { value, timestamp } object comes back whole, through app.store() and HTTP', async () => {
    const view = app.store({ storeName: 'objs', queryableStoreType: QueryableStoreTypes.keyValueStore<string, unknown>() });
    expect(view.get('obj')).toEqual(OBJECT);
    expect(view.all().find((e) => e.key === 'obj')?.value).toEqual(OBJECT);
    // a timestamped store is unwrapped by its type: the value alone, or value and timestamp when asked
    expect(app.store({ storeName: 'latest', queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() }).get('a')).toBe('x');
    expect(app.store({ storeName: 'latest', queryableStoreType: QueryableStoreTypes.timestampedKeyValueStore<string, string>() }).get('a')).toEqual({ value: 'x', timestamp: 10 });
    // a plain store asked for timestamps: refused by type
    expect(() => app.store({ storeName: 'objs', queryableStoreType: QueryableStoreTypes.timestampedKeyValueStore() }).get('obj')).toThrow(/keeps no timestamps/);
    const http = await get('/stores/objs/keys/obj');
    expect(http.status).toBe(200);
    expect(http.body.value).toEqual(OBJECT);
    const range = await get('/stores/objs');
    expect(range.body.entries.find((e: { key: string }) => e.key === 'obj').value).toEqual(OBJECT);
  });

  it("item 5: the keys '.', '..' and '' are keys, not paths", async () => {
    for (const [path, key, value] of [
      ['/stores/objs/keys/..', '..', 'dot-dot'],
      ['/stores/objs/keys/%2E%2E', '..', 'dot-dot'],
      ['/stores/objs/keys/.', '.', 'dot'],
      ['/stores/objs/keys/', '', 'empty'],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.body.key, path).toBe(key);
      expect(r.body.value, path).toBe(value);
      expect(r.body.entries, path).toBeUndefined();
    }
  });

  it('item 6: a window store read as key-value answers 400 naming its route, which answers; /stores gives types and hides the suppression buffer', async () => {
    const key = await get('/stores/per-window/keys/a');
    expect(key.status).toBe(400);
    expect(key.body.error).toMatch(/'per-window' is a timestamped window store and cannot be read as a key-value view: read it with QueryableStoreTypes.windowStore\(\).*GET \/stores\/per-window\/keys\/<key>\/windows/);
    expect(key.body.servedStoreTypes).toEqual(['keyValue', 'timestampedKeyValue', 'versioned', 'window', 'timestampedWindow', 'session']);
    expect((await get('/stores/per-window')).status).toBe(400);
    // issue 30 item 4: the window route answers the count of 'a' (one record at 10) in window [0, 1000)
    const windows = await get('/stores/per-window/keys/a/windows');
    expect(windows.status).toBe(200);
    expect(windows.body.windows).toEqual([{ start: 0, end: 1000, value: 1 }]);
    expect((await get('/stores/per-window/windows')).body.entries).toEqual([{ key: 'a', start: 0, end: 1000, value: 1 }]);
    const view = app.store({ storeName: 'per-window', queryableStoreType: QueryableStoreTypes.keyValueStore() });
    const error = (() => {
      try {
        view.get('a');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidStateStoreError);
    expect((error as InvalidStateStoreError).reason).toBe('wrong-type');
    const stores = await get('/stores');
    const byName = new Map<string, { type?: string; queryable?: boolean }>(stores.body.stores.map((s: { name: string }) => [s.name, s]));
    expect(byName.get('objs')).toMatchObject({ type: 'keyValue', queryable: true });
    expect(byName.get('latest')).toMatchObject({ type: 'timestampedKeyValue', queryable: true });
    expect(byName.get('per-window')?.queryable).toBe(true);
    expect(byName.get('per-window')?.type).toMatch(/window/i);
    expect([...byName.keys()].filter((n) => /SUPPRESS/i.test(n))).toEqual([]);
    expect(JSON.stringify(stores.body.instances)).not.toMatch(/SUPPRESS/i);
  });
});
