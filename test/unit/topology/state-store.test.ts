import { describe, expect, it } from 'vitest';
import { IllegalStateError, SerializationError, Serdes, Stores } from '../../../src/index.js';
import { InMemoryKeyValueStore } from '../../../src/state/in-memory/in-memory-key-value-store.js';

const S = Serdes.String();

function store() {
  return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('s'), S, Serdes.Int32()).build() as InMemoryKeyValueStore<string, number>;
}

describe('in-memory key-value store', () => {
  it('get/put/putIfAbsent/delete, null value deletes', () => {
    const s = store();
    expect(s.name).toBe('s');
    expect(s.get('a')).toBeNull();
    s.put('a', 1);
    expect(s.get('a')).toBe(1);
    expect(s.putIfAbsent('a', 2)).toBe(1);
    expect(s.putIfAbsent('b', 3)).toBeNull();
    expect(s.get('b')).toBe(3);
    expect(s.delete('a')).toBe(1);
    expect(s.delete('a')).toBeNull();
    s.put('b', null);
    expect(s.get('b')).toBeNull();
    expect(s.approximateNumEntries()).toBe(0);
  });

  it('range and all are ordered by serialized key bytes, bounds inclusive, null bounds open', () => {
    const s = store();
    s.putAll([{ key: 'b', value: 2 }, { key: 'a', value: 1 }, { key: 'Z', value: 0 }, { key: 'é', value: 9 }, { key: 'c', value: 3 }]);
    // bytes: 'Z'=0x5a < 'a' < 'b' < 'c' < 'é'=0xc3a9
    expect(s.all().map((e) => e.key)).toEqual(['Z', 'a', 'b', 'c', 'é']);
    expect(s.range('a', 'c')).toEqual([{ key: 'a', value: 1 }, { key: 'b', value: 2 }, { key: 'c', value: 3 }]);
    expect(s.range('aa', null).map((e) => e.key)).toEqual(['b', 'c', 'é']);
    expect(s.range(null, 'a').map((e) => e.key)).toEqual(['Z', 'a']);
    expect(s.range('c', 'a')).toEqual([]);
  });

  it('orders numeric keys by their big-endian bytes', () => {
    const s = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('n'), Serdes.Int32(), S).build();
    for (const k of [300, 2, 70000, 1]) s.put(k, String(k));
    expect(s.all().map((e) => e.key)).toEqual([1, 2, 300, 70000]);
  });

  it('publishes writes to flush listeners only at flush (commit), last write per key', () => {
    const s = store();
    const published: Array<Array<[string, string | null]>> = [];
    s.onFlush((_name, writes) => published.push(writes.map((w) => [w.key.toString(), w.value === null ? null : String(w.value.readInt32BE())])));
    s.put('a', 1);
    s.put('a', 2);
    s.put('b', 5);
    s.delete('b');
    expect(published).toEqual([]);
    s.flush();
    expect(published).toEqual([[['a', '2'], ['b', null]]]);
    s.flush();
    expect(published).toHaveLength(1);
  });

  it('serialization failures name the store and the origin', () => {
    const s = store();
    let error: unknown;
    try {
      s.put('a', 1.5);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SerializationError);
    expect((error as SerializationError).origin).toBe('VALUE');
    expect((error as SerializationError).message).toMatch(/serialize value for topic 's' with serde Int32/);
  });

  it('rejects use after close, naming the allowed state', () => {
    const s = store();
    s.put('a', 1);
    s.close();
    expect(s.isOpen()).toBe(false);
    expect(() => s.get('a')).toThrow(IllegalStateError);
    expect(() => s.put('a', 1)).toThrow(/cannot put in state CLOSED; allowed in: OPEN/);
    s.close(); // idempotent
  });

  it('each build() is a separate store instance (one per task)', () => {
    const builder = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('x'), S, S);
    const a = builder.build();
    const b = builder.build();
    a.put('k', 'v');
    expect(b.get('k')).toBeNull();
  });
});
