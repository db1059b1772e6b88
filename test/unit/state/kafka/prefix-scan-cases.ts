/**
 * The prefix-scan cases InMemoryKeyValueStoreTest and RocksDBStoreTest share
 * (same inputs and expectations in both Kafka classes), over a typed store of
 * raw bytes (Kafka's `KeyValueStore<Bytes, byte[]>`).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { IllegalArgumentError, Serdes } from '../../../../src/index.js';
import type { MeteredKeyValueStore } from '../../../../src/state/metered-key-value-store.js';
import type { Serializer } from '../../../../src/serdes/serde.js';

/** A bytes store under test and its `flush()` (flush, plus commit where the engine writes then). */
export interface BytesStoreFixture {
  store: MeteredKeyValueStore<Buffer, Buffer>;
  flush(): void;
}

const stringSerializer = Serdes.String();
const s = (text: string): Buffer => stringSerializer.serialize('', text) as Buffer;

/** Registers the shared prefix-scan cases; `kafkaClass` names the Java test class they come from. */
export function prefixScanCases(kafkaClass: string, fixture: () => BytesStoreFixture): void {
  // {kafkaClass}.shouldReturnKeysWithGivenPrefix
  it(`${kafkaClass}.shouldReturnKeysWithGivenPrefix`, () => {
    const { store, flush } = fixture();
    store.putAll([
      { key: s('k1'), value: s('a') },
      { key: s('prefix_3'), value: s('b') },
      { key: s('k2'), value: s('c') },
      { key: s('prefix_2'), value: s('d') },
      { key: s('k3'), value: s('e') },
      { key: s('prefix_1'), value: s('f') },
    ]);
    flush();
    const values = store.prefixScan('prefix', stringSerializer).map((e) => e.value.toString());
    expect(values).toHaveLength(3);
    expect(values).toEqual(['f', 'd', 'b']);
  });

  // {kafkaClass}.shouldReturnKeysWithGivenPrefixExcludingNextKeyLargestKey
  it(`${kafkaClass}.shouldReturnKeysWithGivenPrefixExcludingNextKeyLargestKey`, () => {
    const { store, flush } = fixture();
    store.putAll([
      { key: s('abc'), value: s('f') },
      { key: s('abcd'), value: s('f') },
      { key: s('abce'), value: s('f') },
    ]);
    flush();
    expect(store.prefixScan('abcd', stringSerializer)).toHaveLength(1);
  });

  // {kafkaClass}.shouldReturnUUIDsWithStringPrefix
  it(`${kafkaClass}.shouldReturnUUIDsWithStringPrefix`, () => {
    const { store, flush } = fixture();
    const uuidSerializer: Serializer<string> = Serdes.UUID();
    const uuid1 = randomUUID();
    let uuid2 = randomUUID();
    // Kafka's test relies on two random UUIDs not sharing their first 4 characters (1 in 65536); make sure.
    while (uuid2.slice(0, 4) === uuid1.slice(0, 4)) uuid2 = randomUUID();
    const prefix = uuid1.substring(0, 4);
    store.putAll([
      { key: uuidSerializer.serialize('', uuid1) as Buffer, value: s('a') },
      { key: uuidSerializer.serialize('', uuid2) as Buffer, value: s('b') },
    ]);
    flush();
    const values = store.prefixScan(prefix, stringSerializer).map((e) => e.value.toString());
    expect(values).toEqual(['a']);
  });

  // {kafkaClass}.shouldReturnNoKeys
  it(`${kafkaClass}.shouldReturnNoKeys`, () => {
    const { store, flush } = fixture();
    store.putAll([
      { key: s('a'), value: s('a') },
      { key: s('b'), value: s('c') },
      { key: s('c'), value: s('e') },
    ]);
    flush();
    expect(store.prefixScan('bb', stringSerializer)).toHaveLength(0);
  });

  // InMemoryKeyValueStoreTest.shouldThrowNullPointerIfPrefixKeySerializerIsNull
  it(`${kafkaClass}.shouldThrowNullPointerIfPrefixKeySerializerIsNull`, () => {
    const { store } = fixture();
    expect(() => store.prefixScan('bb', null as unknown as Serializer<string>)).toThrow(IllegalArgumentError);
  });
}
