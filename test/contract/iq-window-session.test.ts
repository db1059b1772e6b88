/**
 * Window and session stores through interactive queries (issue 30 item 4), on
 * the embedded cluster and on real Kafka:
 * - port of Kafka's QueryableStateIntegrationTest.verifyCanQueryState
 *   (shouldBeAbleToQueryStateWithZeroSizedCache / ...WithNonZeroSizedCache),
 *   inputs and expectations unchanged: five keys, each once; the count store
 *   answers 1 for each (`get`, `range('go', 'kafka')`, `all()`), and the
 *   2-day windowed count's `fetch(key, 0, now)` answers 1 for each, through
 *   `QueryableStoreTypes.windowStore()`; the same through the query server's
 *   `/keys/<key>/windows` route;
 * - port of QueryableStateIntegrationTest.shouldRejectWronglyTypedStore: a
 *   table's store read through `sessionStore()` throws InvalidStateStoreError on
 *   `fetch('a')` (sluice's own message: it names how to read the store);
 * - two instances: every key's windows and sessions through either instance's
 *   endpoint come from the key's owner (forwarded, or `?redirect=true`), and the
 *   store routes `/stores/<s>/windows` and `/sessions` gather every key once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { InvalidStateStoreError, QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';
import { serveQueries, type QueryServer } from '../../src/runtime/query-server.js';
import { KeyQueryMetadata } from '../../src/runtime/streams-metadata.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Materialized } from '../../src/topology/options.js';
import { SessionWindows } from '../../src/topology/session-windows.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { TimeWindows } from '../../src/topology/time-windows.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { startEosApp } from './support/eos-app.js';
import { produceKeyed } from './support/keyed-produce.js';
import { freePort, getJson } from './support/query-client.js';

const S = Serdes.String();
const WINDOW_SIZE = 2 * 24 * 60 * 60 * 1000;

await describeOnEachBackend('window and session stores through interactive queries', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 240_000 : 60_000;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs * 3, intervalMs: 100, message });
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'sluice-iq-window-'));
    dirs.push(d);
    return d;
  };
  const removeDirs = () => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  };

  async function produce(topic: string, records: Array<{ key: string; value: string }>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      await producer.produce({ topic, partition: 0, records: records.map((r) => ({ key: Buffer.from(r.key), value: Buffer.from(r.value), headers: {}, timestamp: Date.now() })) });
    } finally {
      await producer.close();
    }
  }

  for (const cacheSizeBytes of [0, 10 * 1024 * 1024]) {
    it(`verifyCanQueryState (cache ${cacheSizeBytes} bytes): count and 2-day windowed count, by key, range and all`, { timeout }, async () => {
      const streamOne = uniqueTopic(`stream-one-${backend.name}`);
      const outputTopic = uniqueTopic(`output-${backend.name}`);
      const keys = ['hello', 'goodbye', 'welcome', 'go', 'kafka'];
      let app: KafkaStreams | undefined;
      let server: QueryServer | undefined;
      try {
        await ctx().admin.createTopic(streamOne, { partitions: 1 });
        await ctx().admin.createTopic(outputTopic, { partitions: 1 });
        await produce(streamOne, keys.map((k) => ({ key: k, value: k })));
        const builder = new StreamsBuilder();
        const s1 = builder.stream<string, string>(streamOne, { keySerde: S, valueSerde: S });
        s1.groupByKey().count(Materialized.as('my-count')).toStream().to(outputTopic, { keySerde: S, valueSerde: Serdes.Long() as never });
        s1.groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE)).count(Materialized.as('windowed-count'));
        const port = await freePort();
        const host = `127.0.0.1:${port}`;
        app = new KafkaStreams(builder.build(), {
          cluster: ctx().cluster,
          ...ctx().consumerTiming,
          applicationId: uniqueGroup(`iq-window-${backend.name}`),
          stateDir: dir(),
          commitIntervalMs: 100,
          statestoreCacheMaxBytes: cacheSizeBytes,
          applicationServer: host,
        });
        await app.start();
        server = await serveQueries(app, { port, host: '127.0.0.1', applicationServer: host });
        const myCount = () => app!.store({ storeName: 'my-count', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
        const windowStore = () => app!.store({ storeName: 'windowed-count', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() });
        // verifyCanGetByKey: until every key has its window and its count
        const windowState = new Map<string, number>();
        const countState = new Map<string, number>();
        await eventually(() => {
          try {
            for (const key of keys) {
              const first = windowStore().fetch(key, 0, Date.now())[0];
              if (first !== undefined) windowState.set(key, first.value);
              const value = myCount().get(key);
              if (value !== null) countState.set(key, value);
            }
          } catch {
            // not queryable yet
          }
          return windowState.size === keys.length && countState.size === keys.length;
        }, 'every key counted, windowed and not');
        const expectedCount = new Map(keys.map((k) => [k, 1]));
        expect(windowState).toEqual(expectedCount);
        expect(countState).toEqual(expectedCount);
        // verifyRangeAndAll
        const sorted = (entries: Array<{ key: string; value: number }>) => entries.map((e) => [e.key, e.value]).sort();
        expect(sorted(myCount().range('go', 'kafka'))).toEqual([['go', 1], ['goodbye', 1], ['hello', 1], ['kafka', 1]]);
        expect(sorted(myCount().all())).toEqual(keys.map((k) => [k, 1]).sort());
        // the same windows through the query server
        for (const key of keys) {
          const r = await getJson(`http://${host}/stores/windowed-count/keys/${key}/windows?from=0&to=${Date.now()}`);
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.body.windows.map((w: { value: number; end: number; start: number }) => [w.value, w.end - w.start])).toEqual([[1, WINDOW_SIZE]]);
        }
      } finally {
        await server?.close();
        await app?.close();
        removeDirs();
      }
    });
  }

  it('shouldRejectWronglyTypedStore: a table store read as a session store throws InvalidStateStoreError on fetch', { timeout }, async () => {
    const input = uniqueTopic(`typed-input-${backend.name}`);
    const storeName = `${input}-table`;
    let app: KafkaStreams | undefined;
    try {
      await ctx().admin.createTopic(input, { partitions: 1 });
      const builder = new StreamsBuilder();
      builder.table(input, { keySerde: S, valueSerde: S }, Materialized.as<string, string>(storeName).withKeySerde(S).withValueSerde(S));
      app = new KafkaStreams(builder.build(), { cluster: ctx().cluster, ...ctx().consumerTiming, applicationId: uniqueGroup(`iq-typed-${backend.name}`), stateDir: dir(), commitIntervalMs: 100 });
      await app.start();
      await eventually(() => app!.state === 'RUNNING', 'the app runs');
      const store = app.store({ storeName, queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() });
      expect(store).toBeDefined();
      const sessionStore = app.store({ storeName, queryableStoreType: QueryableStoreTypes.sessionStore<string, string>() });
      const error = await eventually(() => {
        try {
          sessionStore.fetch('a');
        } catch (e) {
          // while the task is not yet assigned the store is 'unavailable'; the type is checked once it is local
          if (e instanceof InvalidStateStoreError && e.reason === 'wrong-type') return e;
        }
        return undefined;
      }, 'the session view refuses the key-value store');
      expect(error.message).toMatch(new RegExp(`Store '${storeName}' is a timestamped key-value store and cannot be read as a session view: read it with QueryableStoreTypes.keyValueStore\\(\\)`));
    } finally {
      await app?.close();
      removeDirs();
    }
  });

  it('two instances: windows and sessions of every key through either endpoint, and the store routes gather every key once', { timeout }, async () => {
    const input = uniqueTopic(`iq-ws-${backend.name}`);
    const applicationId = uniqueGroup(`iq-ws-${backend.name}`);
    const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
    const partitions = 4;
    const apps: KafkaStreams[] = [];
    const servers: QueryServer[] = [];
    const hosts: string[] = [];
    try {
      await ctx().admin.createTopic(input, { partitions });
      for (let n = 0; n < 2; n++) {
        const port = await freePort();
        const host = `127.0.0.1:${port}`;
        const builder = new StreamsBuilder();
        const grouped = builder.stream<string, string>(input, { keySerde: S, valueSerde: S }).groupByKey();
        grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE)).count(Materialized.as('win'));
        grouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(WINDOW_SIZE)).count(Materialized.as('sess'));
        const app = await startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-iq-ws-', apps, dirs, extra: { applicationServer: host, statestoreCacheMaxBytes: 0 } });
        servers.push(await serveQueries(app, { port, host: '127.0.0.1', applicationServer: host, forwardTimeoutMs: 3000 }));
        hosts.push(host);
      }
      await produceKeyed(ctx().cluster, input, { keys, partitions, times: 2 });
      const ownerOf = (key: string): number => {
        const metas = apps.map((a) => a.queryMetadataForKey('win', key, S));
        if (metas.some((m) => m === KeyQueryMetadata.NOT_AVAILABLE)) return -1;
        const owners = new Set(metas.map((m) => `${m.activeHost.host}:${m.activeHost.port}`));
        return owners.size === 1 ? hosts.indexOf([...owners][0]!) : -1;
      };
      const localWindows = (n: number, key: string): number | undefined => {
        try {
          return apps[n]!.store({ storeName: 'win', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() }).fetch(key, 0, Date.now())[0]?.value;
        } catch {
          return undefined;
        }
      };
      const localSessions = (n: number, key: string): number | undefined => {
        try {
          return apps[n]!.store({ storeName: 'sess', queryableStoreType: QueryableStoreTypes.sessionStore<string, number>() }).fetch(key)[0]?.value;
        } catch {
          return undefined;
        }
      };
      await eventually(
        () => apps.every((a) => a.state === 'RUNNING') && keys.every((k) => ownerOf(k) >= 0 && localWindows(ownerOf(k), k) === 2 && localSessions(ownerOf(k), k) === 2),
        'both instances agree on every key and its owner has its window and session',
      );
      expect(new Set(keys.map(ownerOf)).size, 'both instances own keys').toBe(2);
      for (const [via, host] of hosts.entries()) {
        for (const key of keys) {
          const owner = hosts[ownerOf(key)];
          const w = await getJson(`http://${host}/stores/win/keys/${key}/windows`);
          expect(w.status, `${key} via ${host}: ${JSON.stringify(w.body)}`).toBe(200);
          expect(w.body.host).toBe(owner);
          expect(w.body.windows.map((x: { value: number }) => x.value)).toEqual([2]);
          const s = await getJson(`http://${host}/stores/sess/keys/${key}/sessions?order=desc`);
          expect(s.status, `${key} via ${host}: ${JSON.stringify(s.body)}`).toBe(200);
          expect(s.body.host).toBe(owner);
          expect(s.body.sessions.map((x: { value: number }) => x.value)).toEqual([2]);
          if (owner !== host) {
            const redirect = await getJson(`http://${host}/stores/win/keys/${key}/windows?from=0&redirect=true`);
            expect(redirect.status).toBe(307);
            expect(redirect.body.location).toBe(`http://${owner}/stores/win/keys/${key}/windows?from=0`);
          }
        }
        for (const [store, route] of [['win', 'windows'], ['sess', 'sessions']] as const) {
          const all = await getJson(`http://${host}/stores/${store}/${route}`);
          expect(all.status, `${route} via ${via}: ${JSON.stringify(all.body)}`).toBe(200);
          expect(all.body.entries.map((e: { key: string }) => e.key)).toEqual([...keys].sort());
          expect(all.body.entries.every((e: { value: number }) => e.value === 2)).toBe(true);
          const some = await getJson(`http://${host}/stores/${store}/${route}?keyFrom=key-1&keyTo=key-2&limit=2`);
          expect(some.body.entries.map((e: { key: string }) => e.key)).toEqual(['key-1', 'key-10']);
          expect(some.body.truncated).toBe(true);
        }
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(apps.map((a) => a.close()));
      removeDirs();
    }
  });
});
