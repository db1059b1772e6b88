/**
 * Port of Kafka's IQv2VersionedStoreIntegrationTest.verifyStore (inputs and
 * expectations unchanged), on the embedded cluster and on real Kafka: a table
 * over a persistent versioned store (history retention 1 day, segment interval
 * 1 hour), Integer keys and values; four versions of key 2 at BASE, +10, +20,
 * +30 (BASE is Kafka's `BASE_TIMESTAMP_LONG`: 2023-01-01T10:00:00Z in seconds,
 * used as milliseconds, as there). Kafka runs the queries through IQv2
 * (`StateQueryRequest`); sluice has none, so the same `VersionedKeyQuery` and
 * `MultiVersionedKeyQuery` objects run on `app.store(versionedKeyValueStore())`,
 * and the same expectations are checked through the query server's routes
 * (`/keys/2?asOf=`, `/keys/2/versions?from=&to=&order=`).
 * `shouldHandleRaceCondition`: the multi-version answer is a snapshot: a new
 * value at the oldest timestamp, picked up by the store meanwhile, does not
 * change the versions already returned.
 * Besides the port: two instances of a versioned table over four partitions;
 * every key's `?asOf=` and `/versions` answers through either instance's
 * endpoint come from the key's owner (forwarded, one hop).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';
import { serveQueries, type QueryServer } from '../../src/runtime/query-server.js';
import { MultiVersionedKeyQuery, ResultOrder, VersionedKeyQuery, type ReadOnlyVersionedKeyValueStore } from '../../src/runtime/versioned-queries.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Stores } from '../../src/state/stores.js';
import type { VersionedRecord } from '../../src/state/versioned/versioned-key-value-store.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { freePort, getJson } from './support/query-client.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { KeyQueryMetadata } from '../../src/runtime/streams-metadata.js';

const STORE_NAME = 'versioned-store';
const HISTORY_RETENTION = 24 * 60 * 60 * 1000;
const SEGMENT_INTERVAL = 60 * 60 * 1000;
const RECORD_KEY = 2;
const NON_EXISTING_KEY = 3;
const BASE_TIMESTAMP_LONG = Date.parse('2023-01-01T10:00:00.00Z') / 1000;
const RECORD_VALUES = [2, 20, 200, 2000];
const RECORD_TIMESTAMPS = [BASE_TIMESTAMP_LONG, BASE_TIMESTAMP_LONG + 10, BASE_TIMESTAMP_LONG + 20, BASE_TIMESTAMP_LONG + 30];
const RECORD_NUMBER = RECORD_VALUES.length;
const LAST_INDEX = RECORD_NUMBER - 1;
const INT = Serdes.Integer();

/** Kafka's expected record at index i of a range ending at `upper`: `validTo` is the next version's timestamp. */
function expected(i: number, upper: number): VersionedRecord<number> {
  return i < upper ? { value: RECORD_VALUES[i]!, timestamp: RECORD_TIMESTAMPS[i]!, validTo: RECORD_TIMESTAMPS[i + 1]! } : { value: RECORD_VALUES[i]!, timestamp: RECORD_TIMESTAMPS[i]! };
}

/** The indexes lower..upper in the order of `order` (ANY: newest first, as Kafka's store answers). */
function indexes(lower: number, upper: number, order: ResultOrder): number[] {
  const up = Array.from({ length: upper - lower + 1 }, (_, i) => lower + i);
  return order === ResultOrder.ASCENDING ? up : up.reverse();
}

await describeOnEachBackend('IQv2VersionedStoreIntegrationTest port (versioned store queries)', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 120_000 : 60_000;

  async function produce(topic: string, records: Array<{ key: number; value: number; timestamp: number }>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      const encoded = records.map((r) => ({ key: INT.serialize(topic, r.key), value: INT.serialize(topic, r.value), headers: {}, timestamp: r.timestamp }));
      await producer.produce({ topic, partition: 0, records: encoded });
    } finally {
      await producer.close();
    }
  }

  it('verifyStore: VersionedKeyQuery and MultiVersionedKeyQuery through app.store() and the query server', { timeout }, async () => {
    const input = uniqueTopic(`input-topic-${backend.name}`);
    const dir = mkdtempSync(join(tmpdir(), 'sluice-iq-versioned-'));
    let app: KafkaStreams | undefined;
    let server: QueryServer | undefined;
    try {
      // @BeforeAll: the four versions of key 2 in partition 0
      await ctx().admin.createTopic(input, { partitions: 1 });
      await produce(input, RECORD_VALUES.map((value, i) => ({ key: RECORD_KEY, value, timestamp: RECORD_TIMESTAMPS[i]! })));
      // @BeforeEach: builder.table(input, Materialized.as(persistentVersionedKeyValueStore(...)))
      const builder = new StreamsBuilder();
      builder.table(input, { keySerde: INT, valueSerde: INT }, Materialized.as(Stores.persistentVersionedKeyValueStore(STORE_NAME, HISTORY_RETENTION, SEGMENT_INTERVAL)));
      const port = await freePort();
      const host = `127.0.0.1:${port}`;
      app = new KafkaStreams(builder.build(), {
        cluster: ctx().cluster,
        ...ctx().consumerTiming,
        applicationId: uniqueGroup(`iq-versioned-${backend.name}`),
        stateDir: dir,
        commitIntervalMs: 100,
        applicationServer: host,
      });
      await app.start();
      server = await serveQueries(app, { port, host: '127.0.0.1', applicationServer: host, keySerde: INT, parseKey: Number });
      const store = (): ReadOnlyVersionedKeyValueStore<number, number> =>
        app!.store({ storeName: STORE_NAME, queryableStoreType: QueryableStoreTypes.versionedKeyValueStore<number, number>() });
      // iqv2WaitForResult: until the store answers with the last version (PositionBound.at(input-0 offset 3))
      await waitFor(() => {
        try {
          return store().get(RECORD_KEY)?.timestamp === RECORD_TIMESTAMPS[LAST_INDEX];
        } catch {
          return false;
        }
      }, { timeoutMs: ctx().patienceMs * 3, intervalMs: 100, message: 'the versioned store holds the four versions' });
      const now = Date.now();
      const base = `http://${host}/stores/${STORE_NAME}/keys`;

      /* Test Versioned Key Queries */
      const shouldHandleVersionedKeyQuery = async (asOf: number | undefined, value: number, timestamp: number, validTo: number | undefined) => {
        let query = VersionedKeyQuery.withKey<number, number>(RECORD_KEY);
        if (asOf !== undefined) query = query.asOf(asOf);
        const expectedRecord = validTo === undefined ? { value, timestamp } : { value, timestamp, validTo };
        expect(store().query(query)).toEqual(expectedRecord);
        const http = await getJson(`${base}/${RECORD_KEY}${asOf === undefined ? '' : `?asOf=${asOf}`}`);
        expect(http.status, JSON.stringify(http.body)).toBe(200);
        expect({ value: http.body.value, timestamp: http.body.timestamp, ...(http.body.validTo !== undefined ? { validTo: http.body.validTo } : {}) }).toEqual(expectedRecord);
      };
      const shouldVerifyGetNullForVersionedKeyQuery = async (key: number, asOf: number) => {
        expect(store().query(VersionedKeyQuery.withKey<number, number>(key).asOf(asOf))).toBeNull();
        expect((await getJson(`${base}/${key}?asOf=${asOf}`)).status).toBe(404);
      };
      // retrieve the latest value
      await shouldHandleVersionedKeyQuery(undefined, RECORD_VALUES[3]!, RECORD_TIMESTAMPS[3]!, undefined);
      await shouldHandleVersionedKeyQuery(now, RECORD_VALUES[3]!, RECORD_TIMESTAMPS[3]!, undefined);
      await shouldHandleVersionedKeyQuery(RECORD_TIMESTAMPS[3], RECORD_VALUES[3]!, RECORD_TIMESTAMPS[3]!, undefined);
      // retrieve the old value
      await shouldHandleVersionedKeyQuery(RECORD_TIMESTAMPS[0], RECORD_VALUES[0]!, RECORD_TIMESTAMPS[0]!, RECORD_TIMESTAMPS[1]);
      // there is no record for the provided timestamp
      await shouldVerifyGetNullForVersionedKeyQuery(RECORD_KEY, RECORD_TIMESTAMPS[0]! - 50);
      // there is no record with this key
      await shouldVerifyGetNullForVersionedKeyQuery(NON_EXISTING_KEY, now);

      /* Test Multi Versioned Key Queries */
      const define = (key: number, from: number | undefined, to: number | undefined, order: ResultOrder) => {
        let query = MultiVersionedKeyQuery.withKey<number, number>(key);
        if (from !== undefined) query = query.fromTime(from);
        if (to !== undefined) query = query.toTime(to);
        if (order === ResultOrder.ASCENDING) query = query.withAscendingTimestamps();
        return query;
      };
      const versionsPath = (key: number, from: number | undefined, to: number | undefined, order: ResultOrder) => {
        const params = new URLSearchParams();
        if (from !== undefined) params.set('from', String(from));
        if (to !== undefined) params.set('to', String(to));
        if (order === ResultOrder.ASCENDING) params.set('order', 'asc');
        return `${base}/${key}/versions?${params.toString()}`;
      };
      const shouldHandleMultiVersionedKeyQuery = async (from: number | undefined, to: number | undefined, order: ResultOrder, lower: number, upper: number) => {
        const want = indexes(lower, upper, order).map((i) => expected(i, upper));
        const records = store().query(define(RECORD_KEY, from, to, order));
        expect(records).toEqual(want);
        expect(records.length).toBe(upper - lower + 1);
        const http = await getJson(versionsPath(RECORD_KEY, from, to, order));
        expect(http.status, JSON.stringify(http.body)).toBe(200);
        expect(http.body.versions).toEqual(want);
      };
      const shouldVerifyGetNullForMultiVersionedKeyQuery = async (key: number, from: number | undefined, to: number | undefined, order: ResultOrder) => {
        expect(store().query(define(key, from, to, order))).toEqual([]);
        const http = await getJson(versionsPath(key, from, to, order));
        expect(http.status, JSON.stringify(http.body)).toBe(200);
        expect(http.body.versions).toEqual([]);
      };
      // retrieve all existing values
      await shouldHandleMultiVersionedKeyQuery(undefined, undefined, ResultOrder.ANY, 0, LAST_INDEX);
      // retrieve all existing values in ascending order
      await shouldHandleMultiVersionedKeyQuery(undefined, undefined, ResultOrder.ASCENDING, 0, LAST_INDEX);
      // retrieve existing values in query defined time range
      await shouldHandleMultiVersionedKeyQuery(RECORD_TIMESTAMPS[1]! + 5, now, ResultOrder.ANY, 1, LAST_INDEX);
      // there is no record in the query specified time range
      await shouldVerifyGetNullForMultiVersionedKeyQuery(RECORD_KEY, RECORD_TIMESTAMPS[0]! - 100, RECORD_TIMESTAMPS[0]! - 50, ResultOrder.ANY);
      // there is no record in the query specified time range even retrieving results in ascending order
      await shouldVerifyGetNullForMultiVersionedKeyQuery(RECORD_KEY, RECORD_TIMESTAMPS[0]! - 100, RECORD_TIMESTAMPS[0]! - 50, ResultOrder.ASCENDING);
      // there is no record with this key
      await shouldVerifyGetNullForMultiVersionedKeyQuery(NON_EXISTING_KEY, undefined, undefined, ResultOrder.ANY);
      // there is no record with this key even retrieving results in ascending order
      await shouldVerifyGetNullForMultiVersionedKeyQuery(NON_EXISTING_KEY, undefined, undefined, ResultOrder.ASCENDING);

      // test concurrent write while retrieving records (shouldHandleRaceCondition)
      const snapshot = store().query(define(RECORD_KEY, undefined, undefined, ResultOrder.ANY));
      let i = LAST_INDEX;
      let iteratorSize = 0;
      const iterator = snapshot[Symbol.iterator]();
      // step 1
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        expect(next.value).toEqual(expected(i, LAST_INDEX));
        i--;
        iteratorSize++;
        if (i === 2) break;
      }
      // update the value of the oldest record, and make sure the store picked it up
      await produce(input, [{ key: RECORD_KEY, value: 999999, timestamp: RECORD_TIMESTAMPS[0]! }]);
      await waitFor(() => store().get(RECORD_KEY, RECORD_TIMESTAMPS[0]!)?.value === 999999, { timeoutMs: ctx().patienceMs * 3, intervalMs: 100, message: 'the store has the new oldest value' });
      // step 2: continue reading the snapshot taken before the update
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        expect(next.value).toEqual({ value: RECORD_VALUES[i], timestamp: RECORD_TIMESTAMPS[i], validTo: RECORD_TIMESTAMPS[i + 1] });
        i--;
        iteratorSize++;
      }
      expect(iteratorSize).toBe(RECORD_NUMBER);
    } finally {
      await server?.close();
      await app?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two instances: every key of a versioned table answers its versions from its owner through either endpoint', { timeout }, async () => {
    const input = uniqueTopic(`versioned-two-${backend.name}`);
    const applicationId = uniqueGroup(`iq-versioned-two-${backend.name}`);
    const partitions = 4;
    const keys = Array.from({ length: 12 }, (_, i) => `key-${i}`);
    const S = Serdes.String();
    const apps: KafkaStreams[] = [];
    const servers: QueryServer[] = [];
    const hosts: string[] = [];
    const dirs: string[] = [];
    try {
      await ctx().admin.createTopic(input, { partitions });
      for (let n = 0; n < 2; n++) {
        const port = await freePort();
        const host = `127.0.0.1:${port}`;
        const builder = new StreamsBuilder();
        builder.table(input, { keySerde: S, valueSerde: S }, Materialized.as(Stores.inMemoryVersionedKeyValueStore('ver', HISTORY_RETENTION)));
        const dir = mkdtempSync(join(tmpdir(), 'sluice-iq-versioned-two-'));
        dirs.push(dir);
        const app = new KafkaStreams(builder.build(), { cluster: ctx().cluster, ...ctx().consumerTiming, applicationId, stateDir: dir, commitIntervalMs: 100, applicationServer: host });
        apps.push(app);
        await app.start();
        servers.push(await serveQueries(app, { port, host: '127.0.0.1', applicationServer: host, forwardTimeoutMs: 3000 }));
        hosts.push(host);
      }
      // two versions of every key: 'v1' at 1000, 'v2' at 2000, in the default partitioner's partition
      const producer = ctx().cluster.producer({});
      await producer.connect();
      try {
        for (const key of keys) {
          const records = [1000, 2000].map((t) => ({ key: Buffer.from(key), value: Buffer.from(`v${t / 1000}`), headers: {}, timestamp: t }));
          await producer.produce({ topic: input, partition: partitionFor(Buffer.from(key), partitions), records });
        }
      } finally {
        await producer.close();
      }
      const ownerOf = (key: string): number => {
        const metas = apps.map((a) => a.queryMetadataForKey('ver', key, S));
        if (metas.some((m) => m === KeyQueryMetadata.NOT_AVAILABLE)) return -1;
        const owners = new Set(metas.map((m) => `${m.activeHost.host}:${m.activeHost.port}`));
        return owners.size === 1 ? hosts.indexOf([...owners][0]!) : -1;
      };
      const latest = (n: number, key: string): string | undefined => {
        try {
          return apps[n]!.store({ storeName: 'ver', queryableStoreType: QueryableStoreTypes.versionedKeyValueStore<string, string>() }).get(key)?.value;
        } catch {
          return undefined;
        }
      };
      await waitFor(() => apps.every((a) => a.state === 'RUNNING') && keys.every((k) => ownerOf(k) >= 0 && latest(ownerOf(k), k) === 'v2'), {
        timeoutMs: ctx().patienceMs * 3,
        intervalMs: 100,
        message: 'both instances agree on every key and its owner has both versions',
      });
      expect(new Set(keys.map((k) => ownerOf(k))).size, 'both instances own keys').toBe(2);
      for (const host of hosts) {
        for (const key of keys) {
          const owner = hosts[ownerOf(key)];
          const asOf = await getJson(`http://${host}/stores/ver/keys/${key}?asOf=1500`);
          expect(asOf.status, `${key} via ${host}: ${JSON.stringify(asOf.body)}`).toBe(200);
          expect(asOf.body).toMatchObject({ key, value: 'v1', timestamp: 1000, validTo: 2000, host: owner });
          const versions = await getJson(`http://${host}/stores/ver/keys/${key}/versions?order=asc`);
          expect(versions.body.versions).toEqual([{ value: 'v1', timestamp: 1000, validTo: 2000 }, { value: 'v2', timestamp: 2000 }]);
          expect(versions.body.host).toBe(owner);
          expect((await getJson(`http://${host}/stores/ver/keys/${key}?asOf=999`)).status).toBe(404);
        }
      }
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(apps.map((a) => a.close()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
