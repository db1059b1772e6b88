/**
 * Ports of Kafka Streams' ChangeLoggingKeyValueBytesStoreTest and
 * ChangeLoggingTimestampedKeyValueBytesStoreTest
 * (streams/src/test/java/org/apache/kafka/streams/state/internals/), inputs
 * and expected outputs unchanged. Kafka's MockRecordCollector is the init
 * context's changelog sink; putAll is a put per entry (the bytes layer has no
 * putAll). shouldLogPositionOnPut (IQ position headers) does not apply.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ChangeLoggingKeyValueBytesStore } from '../../../../src/state/change-logging-key-value-bytes-store.js';
import { TestBytesStore, testContext, type LoggedRecord } from './test-bytes-store.js';

const hi = Buffer.from('hi');
const hello = Buffer.from('hello');
const there = Buffer.from('there');
const world = Buffer.from('world');

describe('ChangeLoggingKeyValueBytesStoreTest (ported)', () => {
  let inner: TestBytesStore;
  let store: ChangeLoggingKeyValueBytesStore;
  let collected: LoggedRecord[];
  beforeEach(() => {
    inner = new TestBytesStore('kv');
    store = new ChangeLoggingKeyValueBytesStore(inner);
    const t = testContext();
    collected = t.logged;
    store.init(t.context);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldDelegateInit
  it('shouldDelegateInit', () => {
    const other = new TestBytesStore('kv');
    const t = testContext();
    new ChangeLoggingKeyValueBytesStore(other).init(t.context);
    expect(other.initContext).toBe(t.context);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldWriteKeyValueBytesToInnerStoreOnPut
  it('shouldWriteKeyValueBytesToInnerStoreOnPut', () => {
    store.put(hi, there);
    expect(inner.get(hi)).toEqual(there);
    expect(collected).toHaveLength(1);
    expect(collected[0]?.key).toEqual(hi);
    expect(collected[0]?.value).toEqual(there);
    expect(collected[0]?.storeName).toBe('kv');
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldWriteAllKeyValueToInnerStoreOnPutAll
  it('shouldWriteAllKeyValueToInnerStoreOnPutAll', () => {
    store.put(hi, there);
    store.put(hello, world);
    expect(inner.get(hi)).toEqual(there);
    expect(inner.get(hello)).toEqual(world);
    expect(collected.map((r) => [r.key, r.value])).toEqual([
      [hi, there],
      [hello, world],
    ]);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldPropagateDelete
  it('shouldPropagateDelete', () => {
    store.put(hi, there);
    store.delete(hi);
    expect(inner.approximateNumEntries()).toBe(0);
    expect(inner.get(hi)).toBeNull();
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldReturnOldValueOnDelete
  it('shouldReturnOldValueOnDelete', () => {
    store.put(hi, there);
    expect(store.delete(hi)).toEqual(there);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldLogKeyNullOnDelete
  it('shouldLogKeyNullOnDelete', () => {
    store.put(hi, there);
    expect(store.delete(hi)).toEqual(there);
    expect(collected.map((r) => [r.key, r.value])).toEqual([
      [hi, there],
      [hi, null],
    ]);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldWriteToInnerOnPutIfAbsentNoPreviousValue
  it('shouldWriteToInnerOnPutIfAbsentNoPreviousValue', () => {
    store.putIfAbsent(hi, there);
    expect(inner.get(hi)).toEqual(there);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldNotWriteToInnerOnPutIfAbsentWhenValueForKeyExists
  it('shouldNotWriteToInnerOnPutIfAbsentWhenValueForKeyExists', () => {
    store.put(hi, there);
    store.putIfAbsent(hi, world);
    expect(inner.get(hi)).toEqual(there);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldWriteToChangelogOnPutIfAbsentWhenNoPreviousValue
  it('shouldWriteToChangelogOnPutIfAbsentWhenNoPreviousValue', () => {
    store.putIfAbsent(hi, there);
    expect(collected.map((r) => [r.key, r.value])).toEqual([[hi, there]]);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldNotWriteToChangeLogOnPutIfAbsentWhenValueForKeyExists
  it('shouldNotWriteToChangeLogOnPutIfAbsentWhenValueForKeyExists', () => {
    store.put(hi, there);
    store.putIfAbsent(hi, world);
    expect(collected.map((r) => [r.key, r.value])).toEqual([[hi, there]]);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldReturnCurrentValueOnPutIfAbsent
  it('shouldReturnCurrentValueOnPutIfAbsent', () => {
    store.put(hi, there);
    expect(store.putIfAbsent(hi, world)).toEqual(there);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldReturnNullOnPutIfAbsentWhenNoPreviousValue
  it('shouldReturnNullOnPutIfAbsentWhenNoPreviousValue', () => {
    expect(store.putIfAbsent(hi, there)).toBeNull();
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldReturnValueOnGetWhenExists
  it('shouldReturnValueOnGetWhenExists', () => {
    store.put(hello, world);
    expect(store.get(hello)).toEqual(world);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldGetRecordsWithPrefixKey
  it('shouldGetRecordsWithPrefixKey', () => {
    store.put(hi, there);
    const next = Buffer.from(hi);
    next[next.length - 1] = (next[next.length - 1] as number) + 1; // Bytes.increment(hi)
    store.put(next, world);
    const found = store.prefixScan(hi);
    expect(found.map((e) => e.key)).toEqual([hi]);
    expect(found.map((e) => e.value)).toEqual([there]);
  });

  // ChangeLoggingKeyValueBytesStoreTest.shouldReturnNullOnGetWhenDoesntExist
  it('shouldReturnNullOnGetWhenDoesntExist', () => {
    expect(store.get(hello)).toBeNull();
  });
});

describe('change-logging layer (sluice rules)', () => {
  it('stamps changelog records with the timestamp and headers of the record being processed', () => {
    const t = testContext();
    const store = new ChangeLoggingKeyValueBytesStore(new TestBytesStore('kv'));
    store.init(t.context);
    t.current.value = { timestamp: 42, headers: { h: 'v' }, topic: 'in', partition: 0, offset: 7 };
    store.put(hi, there);
    expect(t.logged[0]).toMatchObject({ timestamp: 42, headers: { h: 'v' } });
  });

  it('logs nothing without a changelog sink, and restores below without logging', () => {
    const t = testContext({ logging: false });
    const inner = new TestBytesStore('kv');
    const store = new ChangeLoggingKeyValueBytesStore(inner);
    store.init(t.context);
    store.put(hi, there);
    expect(inner.get(hi)).toEqual(there);
    const logged = testContext();
    const restored = new ChangeLoggingKeyValueBytesStore(new TestBytesStore('kv'));
    restored.init(logged.context);
    restored.restoreBatch([{ key: hi, value: there, timestamp: 5, offset: 0 }]);
    expect(restored.get(hi)).toEqual(there);
    expect(logged.logged).toHaveLength(0);
  });
});

describe('ChangeLoggingTimestampedKeyValueBytesStoreTest (ported)', () => {
  // timestamp is 97 what is ASCII of 'a'
  const rawThere = Buffer.from('\0\0\0\0\0\0\0athere', 'latin1');
  // timestamp is 98 what is ASCII of 'b'
  const rawWorld = Buffer.from('\0\0\0\0\0\0\0bworld', 'latin1');
  let root: TestBytesStore;
  let store: ChangeLoggingKeyValueBytesStore;
  let collected: LoggedRecord[];
  beforeEach(() => {
    root = new TestBytesStore('kv');
    store = new ChangeLoggingKeyValueBytesStore(root, { timestamped: true });
    const t = testContext();
    collected = t.logged;
    store.init(t.context);
  });
  const pairs = () => collected.map((r) => [r.key, r.value, r.timestamp]);

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldDelegateInit
  it('shouldDelegateInit', () => {
    const inner = new TestBytesStore('kv');
    const t = testContext();
    new ChangeLoggingKeyValueBytesStore(inner, { timestamped: true }).init(t.context);
    expect(inner.initContext).toBe(t.context);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldWriteKeyValueBytesToInnerStoreOnPut
  it('shouldWriteKeyValueBytesToInnerStoreOnPut', () => {
    store.put(hi, rawThere);
    expect(root.get(hi)).toEqual(rawThere);
    expect(pairs()).toEqual([[hi, there, 97]]);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldWriteAllKeyValueToInnerStoreOnPutAll
  it('shouldWriteAllKeyValueToInnerStoreOnPutAll', () => {
    store.put(hi, rawThere);
    store.put(hello, rawWorld);
    expect(root.get(hi)).toEqual(rawThere);
    expect(root.get(hello)).toEqual(rawWorld);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldLogChangesOnPutAll
  it('shouldLogChangesOnPutAll', () => {
    store.put(hi, rawThere);
    store.put(hello, rawWorld);
    expect(pairs()).toEqual([
      [hi, there, 97],
      [hello, world, 98],
    ]);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldPropagateDelete
  it('shouldPropagateDelete', () => {
    store.put(hi, rawThere);
    store.delete(hi);
    expect(root.approximateNumEntries()).toBe(0);
    expect(root.get(hi)).toBeNull();
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldReturnOldValueOnDelete
  it('shouldReturnOldValueOnDelete', () => {
    store.put(hi, rawThere);
    expect(store.delete(hi)).toEqual(rawThere);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldLogKeyNullOnDelete
  it('shouldLogKeyNullOnDelete', () => {
    store.put(hi, rawThere);
    store.delete(hi);
    expect(pairs()).toEqual([
      [hi, there, 97],
      [hi, null, 0],
    ]);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldWriteToInnerOnPutIfAbsentNoPreviousValue
  it('shouldWriteToInnerOnPutIfAbsentNoPreviousValue', () => {
    store.putIfAbsent(hi, rawThere);
    expect(root.get(hi)).toEqual(rawThere);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldNotWriteToInnerOnPutIfAbsentWhenValueForKeyExists
  it('shouldNotWriteToInnerOnPutIfAbsentWhenValueForKeyExists', () => {
    store.put(hi, rawThere);
    store.putIfAbsent(hi, rawWorld);
    expect(root.get(hi)).toEqual(rawThere);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldWriteToChangelogOnPutIfAbsentWhenNoPreviousValue
  it('shouldWriteToChangelogOnPutIfAbsentWhenNoPreviousValue', () => {
    store.putIfAbsent(hi, rawThere);
    expect(pairs()).toEqual([[hi, there, 97]]);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldNotWriteToChangeLogOnPutIfAbsentWhenValueForKeyExists
  it('shouldNotWriteToChangeLogOnPutIfAbsentWhenValueForKeyExists', () => {
    store.put(hi, rawThere);
    store.putIfAbsent(hi, rawWorld);
    expect(pairs()).toEqual([[hi, there, 97]]);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldReturnCurrentValueOnPutIfAbsent
  it('shouldReturnCurrentValueOnPutIfAbsent', () => {
    store.put(hi, rawThere);
    expect(store.putIfAbsent(hi, rawWorld)).toEqual(rawThere);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldReturnNullOnPutIfAbsentWhenNoPreviousValue
  it('shouldReturnNullOnPutIfAbsentWhenNoPreviousValue', () => {
    expect(store.putIfAbsent(hi, rawThere)).toBeNull();
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldReturnValueOnGetWhenExists
  it('shouldReturnValueOnGetWhenExists', () => {
    store.put(hello, rawWorld);
    expect(store.get(hello)).toEqual(rawWorld);
  });

  // ChangeLoggingTimestampedKeyValueBytesStoreTest.shouldReturnNullOnGetWhenDoesntExist
  it('shouldReturnNullOnGetWhenDoesntExist', () => {
    expect(store.get(hello)).toBeNull();
  });

  it('restores (value, record timestamp) into timestamp + value', () => {
    store.restoreBatch([{ key: hi, value: there, timestamp: 97, offset: 0 }, { key: hello, value: null, timestamp: 1, offset: 1 }]);
    expect(root.get(hi)).toEqual(rawThere);
    expect(collected).toHaveLength(0);
  });
});
