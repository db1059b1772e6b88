/**
 * Port of Kafka Streams' RocksDBVersionedStoreTest
 * (streams/src/test/java/org/apache/kafka/streams/state/internals/RocksDBVersionedStoreTest.java):
 * every case with its inputs and expected outputs unchanged, run on sluice's
 * versioned engine over both bytes engines (lmdb, in memory). Kafka's
 * `verifyExpiredRecordSensor(n)` reads the store's `droppedRecords`;
 * `get(key, from, to, order)` is `versions(key, from, to, ascending)`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryKeyValueBytesStore } from '../../../../src/state/in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from '../../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import type { ChangelogRecord } from '../../../../src/state/store-contract.js';
import { ListVersionedBytesStore } from '../../../../src/state/versioned/versioned-bytes-store.js';
import { NOT_PUT, VALID_TO_UNDEFINED } from '../../../../src/state/versioned/version-list.js';
import { storeContext, tempStateDir } from '../helpers.js';

const STORE_NAME = 'myversionedrocks';
const HISTORY_RETENTION = 300_000;
const GRACE_PERIOD = HISTORY_RETENTION; // history retention doubles as grace period for now
const SEGMENT_INTERVAL = HISTORY_RETENTION / 3;
const BASE_TIMESTAMP = 10;
const PUT_RETURN_CODE_VALID_TO_UNDEFINED = VALID_TO_UNDEFINED;
const PUT_RETURN_CODE_NOT_PUT = NOT_PUT;
const LONG_MIN = -(2 ** 63);
const LONG_MAX = 2 ** 63 - 1;
type Order = 'ANY' | 'ASCENDING';

const engines = {
  lmdb: () => new LmdbKeyValueBytesStore(STORE_NAME),
  'in-memory': () => new InMemoryKeyValueBytesStore(STORE_NAME),
};

describe.each(Object.keys(engines) as Array<keyof typeof engines>)('RocksDBVersionedStoreTest (ported) on the %s engine', (engine) => {
  let state: ReturnType<typeof tempStateDir>;
  let store: ListVersionedBytesStore;

  const open = (historyRetention: number) => {
    store = new ListVersionedBytesStore(engines[engine](), historyRetention);
    store.init(storeContext(state.dir));
  };
  beforeEach(() => {
    state = tempStateDir();
    open(HISTORY_RETENTION);
  });
  afterEach(() => {
    store.close();
    state.cleanup();
  });

  const bytes = (s: string | null) => (s === null ? null : Buffer.from(s));
  function putToStore(key: string, value: string | null, timestamp: number, expectedValidTo: number) {
    expect(store.put(Buffer.from(key), bytes(value), timestamp), `put(${key}, ${value}, ${timestamp})`).toBe(expectedValidTo);
  }
  function deleteFromStore(key: string, timestamp: number) {
    const r = store.delete(Buffer.from(key), timestamp);
    return r === null ? null : { value: r.value.toString(), timestamp: r.timestamp };
  }
  function verifyGetValueFromStore(key: string, expectedValue: string, expectedTimestamp: number) {
    const latest = store.get(Buffer.from(key));
    expect(latest).not.toBeNull();
    expect(latest!.value.toString()).toBe(expectedValue);
    expect(latest!.timestamp).toBe(expectedTimestamp);
    expect(latest!.validTo).toBeUndefined();
  }
  function verifyGetNullFromStore(key: string) {
    expect(store.get(Buffer.from(key))).toBeNull();
  }
  function verifyTimestampedGetValueFromStore(key: string, timestamp: number, expectedValue: string, expectedTimestamp: number, expectedValidTo: number) {
    const r = store.getAsOf(Buffer.from(key), timestamp);
    expect(r, `get(${key}, ${timestamp})`).not.toBeNull();
    expect(r!.value.toString()).toBe(expectedValue);
    expect(r!.timestamp).toBe(expectedTimestamp);
    if (expectedValidTo === PUT_RETURN_CODE_VALID_TO_UNDEFINED) expect(r!.validTo).toBeUndefined();
    else expect(r!.validTo).toBe(expectedValidTo);
  }
  function verifyTimestampedGetNullFromStore(key: string, timestamp: number) {
    expect(store.getAsOf(Buffer.from(key), timestamp), `get(${key}, ${timestamp})`).toBeNull();
  }
  function verifyVersions(key: string, from: number, to: number, order: Order, values: string[], timestamps: number[], validTos: number[]) {
    const results = store.versions(Buffer.from(key), from, to, order === 'ASCENDING');
    expect(results.map((r) => r.value.toString()), `get(${key}, ${from}, ${to})`).toEqual(values);
    expect(results.map((r) => r.timestamp)).toEqual(timestamps);
    expect(results.map((r) => r.validTo ?? PUT_RETURN_CODE_VALID_TO_UNDEFINED)).toEqual(validTos);
  }
  function verifyVersionsNull(key: string, from: number, to: number) {
    expect(store.versions(Buffer.from(key), from, to, false)).toEqual([]);
  }
  function verifyExpiredRecordSensor(expected: number) {
    expect(store.droppedRecords).toBe(expected);
  }
  let offset = 0;
  function changelog(data: Array<[string, string | null, number]>): ChangelogRecord[] {
    return data.map(([key, value, timestamp]) => ({ key: Buffer.from(key), value: bytes(value), timestamp, offset: offset++ }));
  }

  it('shouldPutLatest', () => {
    putToStore('k', 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'v2', BASE_TIMESTAMP + 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k', 'v2', BASE_TIMESTAMP + 1);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'v', BASE_TIMESTAMP, BASE_TIMESTAMP + 1);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP + 1, 'v2', BASE_TIMESTAMP + 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP + 2, 'v2', BASE_TIMESTAMP + 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
  });

  it('shouldPutNullAsLatest', () => {
    putToStore('k', null, BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, BASE_TIMESTAMP + 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP + 1);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP + 2);
  });

  it('shouldPutOlderWithNonNullLatest', () => {
    putToStore('k', 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'v2', BASE_TIMESTAMP - 2, BASE_TIMESTAMP);
    putToStore('k', 'v1', BASE_TIMESTAMP - 1, BASE_TIMESTAMP);
    putToStore('k', 'v4', BASE_TIMESTAMP - 4, BASE_TIMESTAMP - 2);
    verifyGetValueFromStore('k', 'v', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 1, 'v1', BASE_TIMESTAMP - 1, BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 2, 'v2', BASE_TIMESTAMP - 2, BASE_TIMESTAMP - 1);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 3, 'v4', BASE_TIMESTAMP - 4, BASE_TIMESTAMP - 2);
  });

  it('shouldPutOlderWithNullLatest', () => {
    putToStore('k', null, BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'v2', BASE_TIMESTAMP - 2, BASE_TIMESTAMP);
    putToStore('k', 'v1', BASE_TIMESTAMP - 1, BASE_TIMESTAMP);
    putToStore('k', 'v4', BASE_TIMESTAMP - 4, BASE_TIMESTAMP - 2);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 1, 'v1', BASE_TIMESTAMP - 1, BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 2, 'v2', BASE_TIMESTAMP - 2, BASE_TIMESTAMP - 1);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 3, 'v4', BASE_TIMESTAMP - 4, BASE_TIMESTAMP - 2);
  });

  it('shouldPutOlderNullWithNonNullLatest', () => {
    putToStore('k', 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, BASE_TIMESTAMP - 2, BASE_TIMESTAMP);
    putToStore('k', null, BASE_TIMESTAMP - 1, BASE_TIMESTAMP);
    putToStore('k', null, BASE_TIMESTAMP - 4, BASE_TIMESTAMP - 2);
    putToStore('k', 'v5', BASE_TIMESTAMP - 5, BASE_TIMESTAMP - 4);
    putToStore('k', 'v3', BASE_TIMESTAMP - 3, BASE_TIMESTAMP - 2);
    putToStore('k', null, BASE_TIMESTAMP - 6, BASE_TIMESTAMP - 5);
    verifyGetValueFromStore('k', 'v', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 1);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 2);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 3, 'v3', BASE_TIMESTAMP - 3, BASE_TIMESTAMP - 2);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 4);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 5, 'v5', BASE_TIMESTAMP - 5, BASE_TIMESTAMP - 4);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 6);
  });

  it('shouldPutOlderNullWithNullLatest', () => {
    putToStore('k', null, BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, BASE_TIMESTAMP - 2, BASE_TIMESTAMP);
    putToStore('k', null, BASE_TIMESTAMP - 1, BASE_TIMESTAMP);
    putToStore('k', null, BASE_TIMESTAMP - 4, BASE_TIMESTAMP - 2);
    putToStore('k', 'v3', BASE_TIMESTAMP - 3, BASE_TIMESTAMP - 2);
    putToStore('k', 'v5', BASE_TIMESTAMP - 5, BASE_TIMESTAMP - 4);
    putToStore('k', null, BASE_TIMESTAMP - 6, BASE_TIMESTAMP - 5);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 1);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 2);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 3, 'v3', BASE_TIMESTAMP - 3, BASE_TIMESTAMP - 2);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 4);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP - 5, 'v5', BASE_TIMESTAMP - 5, BASE_TIMESTAMP - 4);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 6);
  });

  it('shouldPutRepeatTimestampAsLatest', () => {
    putToStore('k', 'to_be_replaced', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'b', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k', 'b', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'b', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 1);
    putToStore('k', null, BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 1);
    putToStore('k', null, BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 1);
    putToStore('k', 'b', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k', 'b', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'b', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP - 1);
  });

  it('shouldPutRepeatTimestamps', () => {
    putToStore('k', 'to_be_replaced', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 20);
    putToStore('k', 'to_be_replaced', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 20);
    putToStore('k', 'to_be_replaced', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 20);
    putToStore('k', 'to_be_replaced', SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 1);
    putToStore('k', null, SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vp5', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    putToStore('k', 'to_be_replaced', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    putToStore('k', 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    putToStore('k', null, SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 15);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 6, 'vp5', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 6, 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 8);
  });

  it('shouldPutIntoMultipleSegments', () => {
    putToStore('k', null, SEGMENT_INTERVAL - 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'vn10', SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL - 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL + 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'vp10', SEGMENT_INTERVAL + 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 15, 'vp10', SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 5);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn10', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 15);
  });

  it('shouldMoveRecordToOlderSegmentDuringPut', () => {
    putToStore('k', 'vp20', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'vp10', SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    putToStore('k', 'vn10', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vn2', SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vp1', SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 10);
    verifyGetValueFromStore('k', 'vp20', SEGMENT_INTERVAL + 20);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 30, 'vp20', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 15, 'vp10', SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 5, 'vp1', SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 10);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL, 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 1, 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 2, 'vn2', SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn10', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL - 2);
  });

  it('shouldMoveRecordToOlderSegmentWithNullsDuringPut', () => {
    putToStore('k', null, SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL - 1);
    putToStore('k', null, SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    putToStore('k', 'vp5', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    putToStore('k', 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 15);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 6, 'vp5', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 6, 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 8);
  });

  it('shouldFallThroughToExistingOlderSegmentAsLatestDuringPut', () => {
    putToStore('k', null, SEGMENT_INTERVAL - 5, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    putToStore('k', 'vp20', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vn2', SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL - 1);
    verifyGetValueFromStore('k', 'vp20', SEGMENT_INTERVAL + 20);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 30, 'vp20', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 12);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 2, 'vn2', SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 5);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 6, 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
  });

  it('shouldPutNonLatestTombstoneIntoNewSegmentWithValidTo', () => {
    putToStore('k', 'vp30', SEGMENT_INTERVAL + 30, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 30);
    putToStore('k', 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL + 30);
    putToStore('k', 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 30);
    putToStore('k', null, SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL - 1);
    verifyGetValueFromStore('k', 'vp30', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 10, 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 30);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 1, 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 30);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 2);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 10);
  });

  it('shouldDelete', () => {
    putToStore('k', 'vp20', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'vp10', SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    putToStore('k', 'vn10', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 10);
    putToStore('k', 'vn2', SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL + 10);
    let deleted = deleteFromStore('k', SEGMENT_INTERVAL - 5); // delete from segment
    expect(deleted).toEqual({ value: 'vn10', timestamp: SEGMENT_INTERVAL - 10 });
    deleted = deleteFromStore('k', SEGMENT_INTERVAL + 10); // delete existing timestamp
    expect(deleted).toEqual({ value: 'vp10', timestamp: SEGMENT_INTERVAL + 10 });
    deleted = deleteFromStore('k', SEGMENT_INTERVAL + 10); // delete the same timestamp again
    expect(deleted).toBeNull();
    deleted = deleteFromStore('k', SEGMENT_INTERVAL + 25); // delete from latest value store
    expect(deleted).toEqual({ value: 'vp20', timestamp: SEGMENT_INTERVAL + 20 });
  });

  it('shouldNotPutExpired', () => {
    putToStore('k', 'v', HISTORY_RETENTION + 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // grace period has not elapsed
    putToStore('k1', 'v1', HISTORY_RETENTION + 10 - GRACE_PERIOD, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k1', 'v1', HISTORY_RETENTION + 10 - GRACE_PERIOD);
    // grace period has elapsed, so this put does not take place
    putToStore('k2', 'v2', HISTORY_RETENTION + 9 - GRACE_PERIOD, PUT_RETURN_CODE_NOT_PUT);
    verifyGetNullFromStore('k2');
    verifyExpiredRecordSensor(1);
  });

  it('shouldNotDeleteExpired', () => {
    putToStore('k1', 'v1', 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k2', 'v2', 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('kother', 'vother', HISTORY_RETENTION + 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED); // use separate key to advance stream time
    // grace period has not elapsed
    let deleted = deleteFromStore('k1', HISTORY_RETENTION + 10 - GRACE_PERIOD);
    expect(deleted).toEqual({ value: 'v1', timestamp: 1 });
    verifyGetNullFromStore('k1');
    // grace period has elapsed, so this delete does not take place
    deleted = deleteFromStore('k2', HISTORY_RETENTION + 9 - GRACE_PERIOD);
    expect(deleted).toBeNull(); // return value is null even though record exists because delete did not take place
    verifyGetValueFromStore('k2', 'v2', 1);
    verifyExpiredRecordSensor(1);
  });

  it('shouldGetFromOlderSegments', () => {
    // use a different key to create three different segments
    putToStore('ko', null, SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('ko', null, 2 * SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('ko', null, 3 * SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // return null after visiting all segments
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 20);
    // insert data to create non-empty (first) segment
    putToStore('k', 'v', SEGMENT_INTERVAL - 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 30);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 15, 'v', SEGMENT_INTERVAL - 20, SEGMENT_INTERVAL - 10);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 5);
    // insert data to create non-empty (third) segment
    putToStore('k', 'v2', 3 * SEGMENT_INTERVAL - 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, 3 * SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // presence of non-empty later segment does not affect results of getting from earlier segment
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 30);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 15, 'v', SEGMENT_INTERVAL - 20, SEGMENT_INTERVAL - 10);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 5);
  });

  it('shouldNotGetExpired', () => {
    putToStore('k', 'v_old', 0, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', 'v', SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // old record has not yet expired
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 11, 'v_old', 0, SEGMENT_INTERVAL - 10);
    putToStore('ko', 'vo', HISTORY_RETENTION + SEGMENT_INTERVAL - 11, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // old record still has not yet expired
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 11, 'v_old', 0, SEGMENT_INTERVAL - 10);
    putToStore('ko', 'vo2', HISTORY_RETENTION + SEGMENT_INTERVAL - 10, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // old record is expired now
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 11);
  });

  it('shouldGetExpiredIfLatestValue', () => {
    putToStore('k', 'v', 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('ko', 'vo_old', 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('ko', 'vo_new', HISTORY_RETENTION + 12, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // expired get on key where latest satisfies timestamp bound still returns data
    verifyTimestampedGetValueFromStore('k', 10, 'v', 1, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // same expired get on key where latest value does not satisfy timestamp bound does not return data
    verifyTimestampedGetNullFromStore('ko', 10);
  });

  it('shouldDistinguishEmptyAndNull', () => {
    putToStore('k', null, SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    putToStore('k', null, SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 20);
    putToStore('k', null, SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    // empty string is serialized as an empty byte array, which is different from null (tombstone)
    putToStore('k', '', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    putToStore('k', '', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    putToStore('k', '', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 15);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 6, '', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, '', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 6, '', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 8);
  });

  it('shouldGetRecordVersionsFromOlderSegments', () => {
    const S = SEGMENT_INTERVAL;
    const U = PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    // use a different key to create three different segments
    putToStore('ko', null, S - 10, U);
    putToStore('ko', null, 2 * S - 10, U);
    putToStore('ko', null, 3 * S - 10, U);
    // return null after visiting all segments (the key does not exist.)
    verifyVersionsNull('k', S - 20, S);
    // insert data to create non-empty (first) segment
    putToStore('k', 'v1', S - 30, U);
    putToStore('k', 'v2', S - 25, U);
    putToStore('k', null, S - 20, U);
    putToStore('k', null, S - 15, U);
    putToStore('k', 'v3', S - 10, U);
    putToStore('k', 'v4', S - 5, U);
    // return null for the query with a time range prior to inserting values
    verifyVersionsNull('k', S - 40, S - 35);
    // return values for the query with query time range in which values are still valid and there are multiple tombstones
    verifyVersions('k', S - 30, S - 5, 'ANY', ['v4', 'v3', 'v2', 'v1'], [S - 5, S - 10, S - 25, S - 30], [U, S - 5, S - 20, S - 25]);
    // return values for the query with time range (MIN, MAX)
    verifyVersions('k', LONG_MIN, LONG_MAX, 'ANY', ['v4', 'v3', 'v2', 'v1'], [S - 5, S - 10, S - 25, S - 30], [U, S - 5, S - 20, S - 25]);
    // return the latest record (retrieve only from the latestValueStore)
    verifyVersions('k', S - 4, S, 'ANY', ['v4'], [S - 5], [U]);
    // return one value for the query with time fromTimeStamp = toTimestamp
    verifyVersions('k', S - 5, S - 5, 'ANY', ['v4'], [S - 5], [U]);
    // return one values for the query with time fromTimeStamp = toTimestamp
    verifyVersions('k', S - 4, S - 4, 'ANY', ['v4'], [S - 5], [U]);
    // return values before insertion of any tombstone
    verifyVersions('k', S - 31, S - 21, 'ANY', ['v2', 'v1'], [S - 25, S - 30], [S - 20, S - 25]);
    // return values for the query with time range that covers both tombstones
    verifyVersions('k', S - 24, S - 11, 'ANY', ['v2'], [S - 25], [S - 20]);
    // return values for the query with time range that after insertion of tombstones
    verifyVersions('k', S - 11, S - 4, 'ANY', ['v4', 'v3'], [S - 5, S - 10], [U, S - 5]);
    // return all the records that are valid during the query time range but inserted beforehand
    verifyVersions('k', S - 26, S - 5, 'ANY', ['v4', 'v3', 'v2', 'v1'], [S - 5, S - 10, S - 25, S - 30], [U, S - 5, S - 20, S - 25]);
    // return the valid record that has been inserted at the end of query time range (validFrom = query upper time bound)
    verifyVersions('k', S - 15, S - 10, 'ANY', ['v3'], [S - 10], [S - 5]);
    // return null in the time range where no value is valid
    verifyVersionsNull('k', S - 19, S - 16);
    // insert data to create non-empty (third) segment
    putToStore('k', 'v5', 3 * S - 30, U);
    putToStore('k', null, 3 * S - 20, U);
    // presence of non-empty earlier segment does not affect results of getting from later segment
    verifyVersionsNull('k', S - 40, S - 35);
    verifyVersions('k', S - 30, S - 26, 'ANY', ['v1'], [S - 30], [S - 25]);
    verifyVersionsNull('k', S - 19, S - 16);
  });

  it('shouldGetRecordVersionsInAscendingOrder', () => {
    const S = SEGMENT_INTERVAL;
    const U = PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    putToStore('k', 'v1', S - 30, U);
    putToStore('k', 'v2', S - 25, U);
    putToStore('k', 'v3', S - 10, U);
    putToStore('k', 'v4', S - 5, U);
    verifyVersions('k', S - 30, S - 5, 'ASCENDING', ['v1', 'v2', 'v3', 'v4'], [S - 30, S - 25, S - 10, S - 5], [S - 25, S - 10, S - 5, U]);
  });

  it('shouldGetRecordVersionsFromMultipleOldSegmentsInAscendingOrder', () => {
    const S = SEGMENT_INTERVAL;
    const U = PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    putToStore('k', 'v1', S - 10, U);
    putToStore('k', 'v2', S - 5, U);
    putToStore('k', 'v3', 2 * S - 10, U);
    putToStore('k', 'v4', 2 * S - 5, U);
    verifyVersions('k', LONG_MIN, LONG_MAX, 'ASCENDING', ['v1', 'v2', 'v3', 'v4'], [S - 10, S - 5, 2 * S - 10, 2 * S - 5], [S - 5, 2 * S - 10, 2 * S - 5, U]);
  });

  it('shouldNotGetExpiredRecordVersions', () => {
    const S = SEGMENT_INTERVAL;
    const U = PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    putToStore('k', 'v_old', 0, U);
    putToStore('k', 'v', S - 10, U);
    // old record has not yet expired
    verifyVersions('k', 0, S - 11, 'ANY', ['v_old'], [0], [S - 10]);
    putToStore('ko', 'vo', HISTORY_RETENTION + S - 11, U);
    // old record still has not yet expired
    verifyVersions('k', 0, S - 11, 'ANY', ['v_old'], [0], [S - 10]);
    putToStore('ko', 'vo2', HISTORY_RETENTION + S - 10, U);
    // old record is expired now
    verifyVersionsNull('k', 0, S - 11);
  });

  it('shouldGetExpiredIfLatestVersionValue', () => {
    const U = PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    putToStore('k', 'v', 1, U);
    putToStore('ko', 'vo_old', 1, U);
    putToStore('ko', 'vo_new', HISTORY_RETENTION + 12, U);
    // expired get on key where latest satisfies timestamp bound still returns data
    verifyVersions('k', 0, 10, 'ANY', ['v'], [1], [U]);
    // same expired get on key where latest value does not satisfy timestamp bound does not return data
    verifyVersionsNull('ko', 0, 10);
  });

  it('shouldRestore', () => {
    store.restoreBatch(changelog([
      ['k', 'vp20', SEGMENT_INTERVAL + 20],
      ['k', 'vp10', SEGMENT_INTERVAL + 10],
      ['k', 'vn10', SEGMENT_INTERVAL - 10],
      ['k', 'vn2', SEGMENT_INTERVAL - 2],
      ['k', 'vn1', SEGMENT_INTERVAL - 1],
      ['k', 'vp1', SEGMENT_INTERVAL + 1],
    ]));
    verifyGetValueFromStore('k', 'vp20', SEGMENT_INTERVAL + 20);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 30, 'vp20', SEGMENT_INTERVAL + 20, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 15, 'vp10', SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 5, 'vp1', SEGMENT_INTERVAL + 1, SEGMENT_INTERVAL + 10);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL, 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 1, 'vn1', SEGMENT_INTERVAL - 1, SEGMENT_INTERVAL + 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 2, 'vn2', SEGMENT_INTERVAL - 2, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn10', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL - 2);
  });

  const nullsExpectations = () => {
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 15);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 6, 'vp5', SEGMENT_INTERVAL + 5, SEGMENT_INTERVAL + 10);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn5', SEGMENT_INTERVAL - 5, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 6, 'vn6', SEGMENT_INTERVAL - 6, SEGMENT_INTERVAL - 5);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 8);
  };

  it('shouldRestoreWithNulls', () => {
    store.restoreBatch(changelog([
      ['k', null, SEGMENT_INTERVAL + 20],
      ['k', null, SEGMENT_INTERVAL - 1],
      ['k', null, SEGMENT_INTERVAL + 1],
      ['k', null, SEGMENT_INTERVAL - 10],
      ['k', null, SEGMENT_INTERVAL + 10],
      ['k', 'vp5', SEGMENT_INTERVAL + 5],
      ['k', 'vn5', SEGMENT_INTERVAL - 5],
      ['k', 'vn6', SEGMENT_INTERVAL - 6],
    ]));
    nullsExpectations();
  });

  it('shouldRestoreWithNullsAndRepeatTimestamps', () => {
    store.restoreBatch(changelog([
      ['k', 'to_be_replaced', SEGMENT_INTERVAL + 20],
      ['k', null, SEGMENT_INTERVAL - 10],
      ['k', 'to_be_replaced', SEGMENT_INTERVAL - 10],
      ['k', null, SEGMENT_INTERVAL - 10],
      ['k', 'to_be_replaced', SEGMENT_INTERVAL - 1],
      ['k', 'to_be_replaced', SEGMENT_INTERVAL + 1],
      ['k', null, SEGMENT_INTERVAL - 1],
      ['k', null, SEGMENT_INTERVAL + 1],
      ['k', null, SEGMENT_INTERVAL + 10],
      ['k', null, SEGMENT_INTERVAL + 5],
      ['k', 'vp5', SEGMENT_INTERVAL + 5],
      ['k', 'to_be_replaced', SEGMENT_INTERVAL - 5],
      ['k', 'vn5', SEGMENT_INTERVAL - 5],
      ['k', null, SEGMENT_INTERVAL + 20],
      ['k', null, SEGMENT_INTERVAL + 20],
      ['k', 'vn6', SEGMENT_INTERVAL - 6],
    ]));
    nullsExpectations();
  });

  it('shouldRestoreMultipleBatches', () => {
    store.restoreBatch(changelog([
      ['k', null, SEGMENT_INTERVAL - 20],
      ['k', 'vn10', SEGMENT_INTERVAL - 10],
      ['k', null, SEGMENT_INTERVAL - 1],
    ]));
    store.restoreBatch(changelog([
      ['k', null, SEGMENT_INTERVAL + 1],
      ['k', 'vp10', SEGMENT_INTERVAL + 10],
      ['k', null, SEGMENT_INTERVAL + 20],
    ]));
    verifyGetNullFromStore('k');
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 30);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL + 15, 'vp10', SEGMENT_INTERVAL + 10, SEGMENT_INTERVAL + 20);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 5);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL + 2);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 1);
    verifyTimestampedGetValueFromStore('k', SEGMENT_INTERVAL - 5, 'vn10', SEGMENT_INTERVAL - 10, SEGMENT_INTERVAL - 1);
    verifyTimestampedGetNullFromStore('k', SEGMENT_INTERVAL - 15);
  });

  it('shouldNotRestoreExpired', () => {
    store.restoreBatch(changelog([
      ['k', 'v', HISTORY_RETENTION + 10],
      ['k1', 'v1', HISTORY_RETENTION + 10 - GRACE_PERIOD], // grace period has not elapsed
      ['k2', 'v2', HISTORY_RETENTION + 9 - GRACE_PERIOD], // grace period has elapsed, so this record should not be restored
    ]));
    verifyGetValueFromStore('k', 'v', HISTORY_RETENTION + 10);
    verifyGetValueFromStore('k1', 'v1', HISTORY_RETENTION + 10 - GRACE_PERIOD);
    verifyGetNullFromStore('k2');
    verifyExpiredRecordSensor(0);
  });

  it('shouldRestoreEvenIfRecordWouldBeExpiredByEndOfBatch', () => {
    store.restoreBatch(changelog([
      ['k2', 'v2', HISTORY_RETENTION - GRACE_PERIOD], // this record will be older than grace period by the end of the batch, but should still be restored
      ['k', 'v', HISTORY_RETENTION + 10],
    ]));
    verifyGetValueFromStore('k2', 'v2', HISTORY_RETENTION - GRACE_PERIOD);
    verifyGetValueFromStore('k', 'v', HISTORY_RETENTION + 10);
  });

  it('shouldAllowZeroHistoryRetention', () => {
    // recreate store with zero history retention
    store.close();
    state.cleanup();
    state = tempStateDir();
    open(0);
    // put and get
    putToStore('k', 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k', 'v', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP + 1, 'v', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED); // query in "future" is allowed
    // update existing record at same timestamp
    putToStore('k', 'updated', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k', 'updated', BASE_TIMESTAMP);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP, 'updated', BASE_TIMESTAMP, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // put new record version
    putToStore('k', 'v2', BASE_TIMESTAMP + 2, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    verifyGetValueFromStore('k', 'v2', BASE_TIMESTAMP + 2);
    verifyTimestampedGetValueFromStore('k', BASE_TIMESTAMP + 2, 'v2', BASE_TIMESTAMP + 2, PUT_RETURN_CODE_VALID_TO_UNDEFINED);
    // query in past (history retention expired) returns null
    verifyTimestampedGetNullFromStore('k', BASE_TIMESTAMP + 1);
    // delete existing key
    deleteFromStore('k', BASE_TIMESTAMP + 3);
    verifyGetNullFromStore('k');
    // put in past (grace period expired) does not update the store
    putToStore('k2', 'v', BASE_TIMESTAMP + 2, PUT_RETURN_CODE_NOT_PUT);
    verifyGetNullFromStore('k2');
    verifyExpiredRecordSensor(1);
  });
});
