/**
 * Issue 28: sluice's own state surfaces, damaged by a hostile user, on the
 * embedded cluster. Each case ends handled (a WARN and a restore) or with a
 * clear error naming what to change; nothing is lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { KafkaStreams, Materialized, QueryableStoreTypes, Serdes, Stores, StreamsBuilder } from '../../../src/index.js';
import { LmdbKeyValueBytesStore } from '../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';
import { waitFor } from '../../helpers/index.js';
import { storeContext } from '../state/helpers.js';

const S = Serdes.String();
const applicationId = 'damaged';
const KEYS = 20;
const RECORDS = 100;

function topology() {
  const b = new StreamsBuilder();
  b.stream<string, string>('in', { keySerde: S, valueSerde: S })
    .groupByKey()
    .count(Materialized.as<string, number>(Stores.persistentKeyValueStore('counts')))
    .toStream()
    .to('out', { keySerde: S, valueSerde: Serdes.Long() });
  return b.build();
}

/** A logger keeping the messages at WARN and above. */
function capture(): { logger: pino.Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), lines };
}

describe('damaged state (embedded cluster)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A cluster and state dir where a first app counted RECORDS records over KEYS keys and closed. */
  async function counted(): Promise<{ cluster: EmbeddedKafkaCluster; stateDir: string; taskDir: string }> {
    const cluster = new EmbeddedKafkaCluster();
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-damaged-'));
    cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }), () => cluster.close());
    for (const t of ['in', 'out']) await cluster.createTopic(t, { partitions: 1 });
    await cluster.produce('in', Array.from({ length: RECORDS }, (_, i) => ({ key: `k${i % KEYS}`, value: 'x' })));
    const first = new KafkaStreams(topology(), { applicationId, cluster, stateDir, statestoreCacheMaxBytes: 0, logger: pino({ level: 'silent' }) });
    await first.start();
    await waitFor(async () => (await cluster.committedOffsets(applicationId, 'in'))[0] === RECORDS);
    await first.close();
    return { cluster, stateDir, taskDir: join(stateDir, applicationId, '0_0') };
  }

  async function restart(cluster: EmbeddedKafkaCluster, stateDir: string) {
    const { logger, lines } = capture();
    const app = new KafkaStreams(topology(), { applicationId, cluster, stateDir, statestoreCacheMaxBytes: 0, logger });
    cleanups.push(() => app.close());
    await app.start();
    return { app, lines };
  }

  function expectExactCounts(app: KafkaStreams): void {
    const view = app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
    expect(view.all().map((e) => `${e.key}=${e.value}`).sort()).toEqual(Array.from({ length: KEYS }, (_, k) => `k${k}=${RECORDS / KEYS}`).sort());
  }

  it('item 2: a negative checkpoint stored with the store (was: ERROR on every start) is damage: WARN, wiped, restored exactly', async () => {
    const { cluster, stateDir, taskDir } = await counted();
    const store = new LmdbKeyValueBytesStore('counts');
    store.init(storeContext(taskDir));
    store.commit(-5);
    store.close();
    const { app, lines } = await restart(cluster, stateDir);
    expect(app.state).toBe('RUNNING');
    expect(lines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^Persistent store 'counts' of task 0_0 is damaged \(its checkpoint is offset -5, which no changelog has\)/));
    expectExactCounts(app);
  });

  it('item 2: a task .checkpoint file with a negative or non-numeric offset: WARN, ignored, the app runs with its state', async () => {
    const { cluster, stateDir, taskDir } = await counted();
    writeFileSync(join(taskDir, '.checkpoint'), JSON.stringify({ [`${applicationId}-counts-changelog-0`]: -5, other: 'abc' }));
    const { app, lines } = await restart(cluster, stateDir);
    expect(app.state).toBe('RUNNING');
    expect(lines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/offset -5 of damaged-counts-changelog-0 cannot be right: ignored/));
    expectExactCounts(app);
  });
});

describe('changelogs deleted (embedded cluster)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function running(cluster: EmbeddedKafkaCluster, stateDir: string) {
    const { logger, lines } = capture();
    const app = new KafkaStreams(topology(), { applicationId, cluster, stateDir, statestoreCacheMaxBytes: 0, logger });
    cleanups.push(() => app.close());
    await app.start();
    return { app, lines };
  }

  async function setup() {
    const cluster = new EmbeddedKafkaCluster();
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-damaged-'));
    cleanups.push(() => rmSync(stateDir, { recursive: true, force: true }), () => cluster.close());
    for (const t of ['in', 'out']) await cluster.createTopic(t, { partitions: 1 });
    await cluster.produce('in', Array.from({ length: RECORDS }, (_, i) => ({ key: `k${i % KEYS}`, value: 'x' })));
    return { cluster, stateDir };
  }

  it('item 10: a changelog deleted while the app runs (was: RUNNING for 120 s, then advice to create an internal topic): ERROR within seconds naming the changelog and what to do; nothing committed after', async () => {
    const { cluster, stateDir } = await setup();
    const { app } = await running(cluster, stateDir);
    await waitFor(async () => (await cluster.committedOffsets(applicationId, 'in'))[0] === RECORDS);
    await cluster.deleteTopic(`${applicationId}-counts-changelog`);
    const deletedAt = Date.now();
    await cluster.produce('in', [{ key: 'k0', value: 'x' }]);
    await waitFor(() => app.state === 'ERROR', { timeoutMs: 15_000 });
    expect(Date.now() - deletedAt).toBeLessThan(15_000);
    expect(app.error?.message).toMatch(
      /^Changelog topic 'damaged-counts-changelog' \(task 0_0\) was deleted while the application was running .*What to do: to keep the state, re-create the topic from a backup before restarting; otherwise restart the application: sluice re-creates the changelog/,
    );
    expect(app.error?.message).not.toMatch(/Create it first|create the internal topic/i);
    expect((await cluster.committedOffsets(applicationId, 'in'))[0], 'the record after the deletion is not committed: it is processed again after a restart').toBe(RECORDS);
  }, 30_000);

  it('item 13: an undecodable changelog value (was: blocked its key for ever, called the store a topic) is skipped at restore with a WARN naming store, changelog partition and offset; the key keeps counting', async () => {
    const { cluster, stateDir } = await setup();
    const first = await running(cluster, stateDir);
    await waitFor(async () => (await cluster.committedOffsets(applicationId, 'in'))[0] === RECORDS);
    await first.app.close();
    const changelog = `${applicationId}-counts-changelog`;
    await cluster.produce(changelog, [{ key: 'k1', value: 'bad', partition: 0 }]);
    const { app, lines } = await running(cluster, mkdtempSync(join(tmpdir(), 'sluice-damaged-')));
    await waitFor(() => app.state === 'RUNNING');
    await waitFor(() => lines.some((l) => l.level === 40));
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      expect.stringMatching(new RegExp(`^Store 'counts': the changelog record at ${changelog}-0 offset \\d+ has a value its serde .* cannot read \\(.*\\): skipped; its key keeps its value from before that record`)),
    ]);
    const view = app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
    expect(view.get('k1')).toBe(RECORDS / KEYS);
    await cluster.produce('in', [{ key: 'k1', value: 'x' }]);
    await waitFor(() => view.get('k1') === RECORDS / KEYS + 1);
    expect(app.state).toBe('RUNNING');
  }, 30_000);

  it('item 13: a changelog deleted while the app was stopped: WARN naming the store and that its state restarts from empty (was: INFO only)', async () => {
    const { cluster, stateDir } = await setup();
    const first = await running(cluster, stateDir);
    await waitFor(async () => (await cluster.committedOffsets(applicationId, 'in'))[0] === RECORDS);
    await first.app.close();
    await cluster.deleteTopic(`${applicationId}-counts-changelog`);
    const { app, lines } = await running(cluster, stateDir);
    await waitFor(() => app.state === 'RUNNING');
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/^Store 'counts' of task 0_0: it is at changelog offset \d+, beyond the end of damaged-counts-changelog-0 \(0\).*so the store's state restarts from empty\. Its local copy was wiped/),
    );
    const view = app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
    await waitFor(() => view.all().length === 0);
  }, 30_000);
});

describe('state directory and store names (issue 28 item 13)', () => {
  it('a stateDir below a regular file (was: a raw ENOTDIR): the app stops with STATE_DIR_ERROR naming the file in the way', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sluice-damaged-'));
    const cluster = new EmbeddedKafkaCluster();
    try {
      for (const t of ['in', 'out']) await cluster.createTopic(t, { partitions: 1 });
      writeFileSync(join(root, 'a-file'), 'x');
      const { logger } = capture();
      const app = new KafkaStreams(topology(), { applicationId, cluster, stateDir: join(root, 'a-file', 'state'), statestoreCacheMaxBytes: 0, logger });
      await app.start().catch(() => undefined);
      await waitFor(() => app.state === 'ERROR');
      expect(app.error?.message).toBe(
        `State directory: cannot use ${join(root, 'a-file', 'state')}: ${join(root, 'a-file')} is a file, not a directory (ENOTDIR); remove it or set another stateDir`,
      );
      await app.close();
    } finally {
      await cluster.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.each(['.lock', '.checkpoint', '.checkpoint.tmp', '.lock.1234'])('Materialized.as(%j) (was: EEXIST on every start) is refused at build time, naming the store', (name) => {
    const b = new StreamsBuilder();
    const build = () => {
      b.stream<string, string>('in', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as<string, number>(name));
      return b.build();
    };
    expect(build).toThrow(new RegExp(`^Store name "${name.replace(/\./g, '\\.')}" is reserved: sluice keeps its own file '\\.(lock|checkpoint)'.*give the store another name$`));
  });

  it('a global store named .lock is refused too; ordinary names with dots are fine', () => {
    const b = new StreamsBuilder();
    expect(() => b.globalTable<string, string>('in', { keySerde: S, valueSerde: S }, Materialized.as('.lock'))).toThrow(/Store name "\.lock" is reserved/);
    const ok = new StreamsBuilder();
    ok.stream<string, string>('in', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as<string, number>('.locked-counts.v2'));
    expect(() => ok.build()).not.toThrow();
  });
});
