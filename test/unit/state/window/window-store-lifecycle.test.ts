/**
 * sluice's own cases for the window and session stores: the store lifecycle
 * of the state contract (checkpoint, commit, restart, restore), changelog
 * layouts and topic configs, the timestamped changelog format, and the purge
 * of expired entries from the engine.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, IllegalStateError } from '../../../../src/errors.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { Stores } from '../../../../src/state/stores.js';
import { sessionBytesStoreSupplier, windowBytesStoreSupplier } from '../../../../src/state/window-stores.js';
import { WindowKeySchema } from '../../../../src/state/window-key-schema.js';
import { SessionKeySchema } from '../../../../src/state/session-key-schema.js';
import { OverlayTestEngine, SortedBytesEngine, asChangelog, testContext, testDisk, type TestDisk } from './helpers.js';

const persistentWindow = (disk: TestDisk, retention = 1000, size = 10, dups = false) =>
  Stores.windowStoreBuilder(windowBytesStoreSupplier('w', retention, size, dups, 'persistent', (n) => new OverlayTestEngine(n, disk)), Serdes.String(), Serdes.String()).build();

describe('window and session stores: changelog topic configs', () => {
  it('window changelogs are compact,delete with retention + 1 day, merged with the user config', () => {
    const store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 60_000, 1000, false), Serdes.String(), Serdes.String()).build();
    expect(store.changelogConfig).toEqual({ 'cleanup.policy': 'compact,delete', 'retention.ms': String(60_000 + 86_400_000) });
    const custom = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 60_000, 1000, false), Serdes.String(), Serdes.String())
      .withLoggingEnabled({ 'retention.ms': '5', 'segment.bytes': '1000' })
      .build();
    expect(custom.changelogConfig).toEqual({ 'cleanup.policy': 'compact,delete', 'retention.ms': '5', 'segment.bytes': '1000' });
    expect(custom.loggingEnabled).toBe(true);
  });

  it('session changelogs use the windowed config too; retaining duplicates makes it delete-only', () => {
    const session = Stores.sessionStoreBuilder(Stores.persistentSessionStore('s', 30_000), Serdes.String(), Serdes.Long()).build();
    expect(session.changelogConfig).toEqual({ 'cleanup.policy': 'compact,delete', 'retention.ms': String(30_000 + 86_400_000) });
    const dups = Stores.windowStoreBuilder(Stores.persistentWindowStore('j', 100, 10, true), Serdes.String(), Serdes.String()).build();
    expect(dups.changelogConfig['cleanup.policy']).toBe('delete');
    expect(Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 10, 10, false), Serdes.String(), Serdes.String()).withLoggingDisabled().build().loggingEnabled).toBe(false);
  });
});

describe('window and session stores: changelog records', () => {
  it('a window put logs Kafka\'s store key binary with the processed record timestamp; no changelog without logging', () => {
    const store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 100, 10, false), Serdes.String(), Serdes.String()).build();
    const context = testContext();
    store.init(context);
    context.record = { timestamp: 77, headers: {} };
    store.put('k', 'v', 20);
    expect(context.collected).toEqual([{ storeName: 'w', key: WindowKeySchema.toStoreKeyBinary(Buffer.from('k'), 20, 0), value: Buffer.from('v'), timestamp: 77 }]);
    const silent = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 100, 10, false), Serdes.String(), Serdes.String()).withLoggingDisabled().build();
    const quiet = testContext();
    silent.init(quiet);
    silent.put('k', 'v', 20);
    expect(quiet.collected).toEqual([]);
  });

  it('a session put logs the session key binary, a remove a tombstone', () => {
    const store = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('s', 100), Serdes.String(), Serdes.Long()).build();
    const context = testContext();
    store.init(context);
    store.put({ key: 'k', window: { start: 1, end: 5 } }, 3);
    store.remove({ key: 'k', window: { start: 1, end: 5 } });
    const key = SessionKeySchema.toBinaryBytes(Buffer.from('k'), 1, 5);
    expect(context.collected.map((l) => [l.key, l.value])).toEqual([[key, Serdes.Long().serialize('', 3)], [key, null]]);
    expect(store.fetchSession('k', 1, 5)).toBeNull();
  });

  it('a timestamped window store logs the plain value with the stored timestamp, and restores value and timestamp from it', () => {
    const build = () => Stores.timestampedWindowStoreBuilder(Stores.inMemoryWindowStore('t', 100, 10, false), Serdes.String(), Serdes.String()).build();
    const store = build();
    const context = testContext();
    store.init(context);
    store.put('k', { value: 'v', timestamp: 42 }, 20);
    expect(context.collected[0]?.value).toEqual(Buffer.from('v'));
    expect(context.collected[0]?.timestamp).toBe(42);
    const restored = build();
    restored.init(testContext());
    restored.restoreBatch(asChangelog(context.collected));
    expect(restored.fetch('k', 20)).toEqual({ value: 'v', timestamp: 42 });
  });
});

describe('window and session stores: lifecycle on a persistent engine', () => {
  it('keeps committed windows, stream time and checkpoint across a restart; discards uncommitted writes', () => {
    const disk = testDisk();
    const first = persistentWindow(disk);
    first.init(testContext());
    first.put('a', '1', 500);
    first.flush();
    first.commit(5);
    first.put('b', 'uncommitted', 600);
    first.close();

    const second = persistentWindow(disk);
    expect(second.isOpen()).toBe(false);
    second.init(testContext());
    expect(second.checkpoint()).toBe(5);
    expect(second.fetch('a', 500)).toBe('1');
    expect(second.fetch('b', 600)).toBeNull();
    // stream time 500 survived: a window at or before 500 - 1000 … is expired only once time passes; 2000 expires 500
    second.put('c', '3', 2000);
    expect(second.fetch('a', 500)).toBeNull();
    second.put('late', 'x', 900);
    expect(second.droppedRecords).toBe(1);
    second.close();
  });

  it('restoring skips expired changelog records and still moves the checkpoint past the batch', () => {
    const source = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 1000, 10, false), Serdes.String(), Serdes.String()).build();
    const context = testContext();
    source.init(context);
    source.put('new', 'n', 5000);
    source.put('old', 'o', 0); // expired: dropped, but logged as Kafka logs every put
    const disk = testDisk();
    const restored = persistentWindow(disk);
    restored.init(testContext());
    restored.restoreBatch(asChangelog(context.collected));
    expect(restored.checkpoint()).toBe(2);
    expect(restored.all().map((e) => e.key.key)).toEqual(['new']);
    expect([...disk.entries.keys()].some((k) => Buffer.from(k, 'hex').includes(Buffer.from('old')))).toBe(false);
    restored.restoreBatch(asChangelog(context.collected).slice(1).map((r) => ({ ...r, offset: 7 })));
    expect(restored.checkpoint()).toBe(8);
  });

  it('a session store keeps committed sessions across a restart', () => {
    const disk = testDisk();
    const build = () =>
      Stores.sessionStoreBuilder(sessionBytesStoreSupplier('s', 1000, 'persistent', (n) => new OverlayTestEngine(n, disk)), Serdes.String(), Serdes.Long()).build();
    const first = build();
    first.init(testContext());
    first.put({ key: 'a', window: { start: 10, end: 20 } }, 1);
    first.flush();
    first.commit(1);
    first.close();
    const second = build();
    second.init(testContext());
    expect(second.fetch('a')).toEqual([{ key: { key: 'a', window: { start: 10, end: 20 } }, value: 1 }]);
    second.close();
  });
});

describe('window and session stores: purge and misuse', () => {
  it('deletes expired entries from the engine once stream time has moved a segment interval', () => {
    const engine = new SortedBytesEngine('w');
    const store = Stores.windowStoreBuilder(windowBytesStoreSupplier('w', 1000, 10, false, 'in-memory', () => engine), Serdes.String(), Serdes.String()).build();
    store.init(testContext());
    for (let t = 0; t < 10; t++) store.put(`k${t}`, 'v', t * 100);
    expect(engine.approximateNumEntries()).toBe(20); // entry + index each
    store.put('late', 'v', 70_000); // min live time 69_001 >= 0 + 60_000 (segment interval): purge
    expect(engine.approximateNumEntries()).toBe(2);
    expect(store.all().map((e) => e.key.key)).toEqual(['late']);
  });

  it('refuses data calls before init and after close, and negative window starts', () => {
    const store = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 100, 10, false), Serdes.String(), Serdes.String()).build();
    expect(() => store.put('k', 'v', 1)).toThrow(IllegalStateError);
    expect(() => store.put('k', 'v', 1)).toThrow(/put\(\) is not allowed in state CREATED; call init\(\) first/);
    store.init(testContext());
    expect(() => store.put('k', 'v', -1)).toThrow(IllegalArgumentError);
    expect(() => store.put('k', 'v', -1)).toThrow(/windowStartTimestamp must be an integer >= 0/);
    store.close();
    store.close();
    expect(() => store.fetch('k', 0, 10)).toThrow(IllegalStateError);
    const session = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('s', 100), Serdes.String(), Serdes.Long()).build();
    session.init(testContext());
    expect(() => session.put({ key: 'k', window: { start: 5, end: 1 } }, 1)).toThrow(IllegalArgumentError);
  });
});
