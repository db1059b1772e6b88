/**
 * A port of Kafka Streams' `VersionedKeyValueStoreIntegrationTest.shouldRestore`
 * (streams/src/test/java/org/apache/kafka/streams/integration/VersionedKeyValueStoreIntegrationTest.java),
 * inputs and expected outputs unchanged, on the embedded cluster and on real
 * Kafka (issue 30): a processor writes every record to a persistent versioned
 * store (`"delete"`: `delete()`, null: a tombstone put) and forwards how many of
 * its checks of the whole store content failed (`get(key, ts)` for every
 * timestamp written, `get(key)`); after `close()` and `cleanUp()` the app
 * restarts with the data written so far as expected content (restored from the
 * changelog), and every output is 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Consumed, KafkaStreams, Serdes, StreamsBuilder, Stores, type ProcessorSupplier, type VersionedKeyValueStore, type VersionedRecord } from '../../src/index.js';
import type { Record as StreamRecord } from '../../src/processors/record.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();

/** Kafka's DataTracker: key -> timestamp -> value (null: none); `"delete"` is recorded as null. */
class DataTracker {
  static readonly DELETE_VALUE_KEYWORD = 'delete';
  readonly data = new Map<number, Map<number, string | null>>();
  add(key: number, timestamp: number, value: string | null): void {
    const byTime = this.data.get(key) ?? new Map<number, string | null>();
    byTime.set(timestamp, value === DataTracker.DELETE_VALUE_KEYWORD ? null : value);
    this.data.set(key, byTime);
  }
}

/** Kafka's VersionedStoreContentCheckerProcessor (writeToStore = true). */
function contentChecker(storeName: string, data: DataTracker): ProcessorSupplier<number, string | null, number, number> {
  return {
    get() {
      let store: VersionedKeyValueStore<number, string>;
      let forward: (record: StreamRecord<number, number>) => void;
      const contentsMatch = (record: VersionedRecord<string> | null, expectedValue: string | null, expectedTimestamp: number) =>
        expectedValue === null ? record === null : record !== null && record.value === expectedValue && record.timestamp === expectedTimestamp;
      const checkStoreContents = (): number => {
        let failedChecks = 0;
        for (const [key, timestampsAndValues] of data.data) {
          let maxExpectedTimestamp = -1;
          let expectedValueForMaxTimestamp: string | null = null;
          for (const [expectedTimestamp, expectedValue] of timestampsAndValues) {
            if (expectedTimestamp > maxExpectedTimestamp) {
              maxExpectedTimestamp = expectedTimestamp;
              expectedValueForMaxTimestamp = expectedValue;
            }
            if (!contentsMatch(store.get(key, expectedTimestamp), expectedValue, expectedTimestamp)) failedChecks++;
          }
          if (!contentsMatch(store.get(key), expectedValueForMaxTimestamp, maxExpectedTimestamp)) failedChecks++;
        }
        return failedChecks;
      };
      return {
        init(context) {
          store = context.getStateStore(storeName);
          forward = (record) => context.forward(record);
        },
        process(record) {
          if (record.value === DataTracker.DELETE_VALUE_KEYWORD) store.delete(record.key, record.timestamp);
          else store.put(record.key, record.value, record.timestamp);
          data.add(record.key, record.timestamp, record.value);
          forward(record.withValue(checkStoreContents()));
        },
      };
    },
  };
}

await describeOnEachBackend('versioned store restored (Kafka VersionedKeyValueStoreIntegrationTest)', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'embedded' ? 60_000 : 180_000;

  it(
    'VersionedKeyValueStoreIntegrationTest.shouldRestore (port): every content check passes before and after a restore from the changelog',
    async () => {
      const STORE_NAME = 'versioned-store';
      const HISTORY_RETENTION = 3600_000;
      const I = Serdes.Integer();
      const [inputStream, outputStream] = [uniqueTopic(`vr-input-stream-${backend.name}`), uniqueTopic(`vr-output-stream-${backend.name}`)];
      await ctx().admin.createTopic(inputStream, { partitions: 1 });
      await ctx().admin.createTopic(outputStream, { partitions: 1 });
      const baseTimestamp = Date.now();
      const stateDir = mkdtempSync(join(tmpdir(), 'sluice-vr-'));
      const props = { cluster: ctx().cluster, ...ctx().consumerTiming, applicationId: uniqueGroup(`app-shouldRestore-${backend.name}`), stateDir, commitIntervalMs: 1000 };
      const app = (data: DataTracker) => {
        const builder = new StreamsBuilder();
        builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore(STORE_NAME, HISTORY_RETENTION), I, S));
        builder
          .stream(inputStream, Consumed.with(I, S))
          .process(contentChecker(STORE_NAME, data), STORE_NAME)
          .to(outputStream, { keySerde: I, valueSerde: I });
        return new KafkaStreams(builder.build(), props);
      };
      const produceDataToTopic = async (timestamp: number, keyValues: Array<[number, string | null]>, data?: DataTracker) => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          await producer.produce({ topic: inputStream, partition: 0, records: keyValues.map(([k, v]) => ({ key: I.serialize(inputStream, k)!, value: v === null ? null : Buffer.from(v), headers: {}, timestamp })) });
        } finally {
          await producer.close();
        }
        for (const [k, v] of keyValues) data?.add(k, timestamp, v);
        return keyValues.length;
      };
      const received = async (n: number) => {
        let values: number[] = [];
        await eventually(async () => (values = (await ctx().read(outputStream, 'read_uncommitted')).map((r) => I.deserialize(outputStream, r.value)!)).length >= n, `${n} records in ${outputStream}`);
        return values;
      };

      let kafkaStreams = app(new DataTracker());
      await kafkaStreams.start();
      try {
        // produce source data and track in-memory to verify after restore
        const data = new DataTracker();
        let initialRecordsProduced = 0;
        initialRecordsProduced += await produceDataToTopic(baseTimestamp, [[1, 'a0'], [2, 'b0'], [3, null]], data);
        initialRecordsProduced += await produceDataToTopic(baseTimestamp + 5, [[1, 'a5'], [2, null], [3, 'c5']], data);
        initialRecordsProduced += await produceDataToTopic(baseTimestamp + 2, [[1, 'a2'], [2, 'b2'], [3, null]], data); // out-of-order data
        initialRecordsProduced += await produceDataToTopic(baseTimestamp + 5, [[1, 'a5_new'], [2, 'b5'], [3, null]], data); // replace existing records
        initialRecordsProduced += await produceDataToTopic(baseTimestamp + 7, [[1, 'delete'], [2, 'delete'], [3, 'delete']], data); // delete
        initialRecordsProduced += await produceDataToTopic(baseTimestamp + 10, [[1, 'a10'], [2, 'b10'], [3, 'c10']], data); // new data so latest is not tombstone
        // wait for output
        await received(initialRecordsProduced);

        // wipe out state store to trigger restore process on restart
        await kafkaStreams.close();
        kafkaStreams.cleanUp();

        // restart app and pass expected store contents to processor
        kafkaStreams = app(data);
        await kafkaStreams.start();
        // produce additional records
        const additionalRecordsProduced = await produceDataToTopic(baseTimestamp + 12, [[1, 'a12'], [2, 'b12'], [3, 'c12']]);
        // wait for output and verify: zero failed checks for each record
        const receivedRecords = await received(initialRecordsProduced + additionalRecordsProduced);
        expect(receivedRecords).toEqual(new Array<number>(initialRecordsProduced + additionalRecordsProduced).fill(0));
      } finally {
        await kafkaStreams.close();
        rmSync(stateDir, { recursive: true, force: true });
      }
    },
    timeout,
  );
});
