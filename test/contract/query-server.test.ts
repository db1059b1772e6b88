/**
 * The query API across instances (issue 19, acceptance "Queries"), on the
 * embedded cluster and on real Kafka: three instances of one stateful app (a
 * count per key in store 'counts', exactly_once, own state directories), each
 * with `applicationServer` 127.0.0.1:<port> and its own `serveQueries`.
 * - every key through every instance's endpoint answers the owner's local
 *   value; the range endpoint answers every key once;
 * - during a rebalance (one instance closes, later a new one joins) a loop
 *   queries every key (and the range) through every live endpoint: each answer
 *   is the correct value or a 503 with Retry-After (or a 504 with Retry-After
 *   naming an instance slower than forwardTimeoutMs), never anything else; the
 *   counts are printed for the issue's report;
 * - once the group settles, every key answers 200 again from every endpoint.
 */
import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import type { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { KeyQueryMetadata } from '../../src/runtime/streams-metadata.js';
import { QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';
import { serveQueries, type QueryServer } from '../../src/runtime/query-server.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { Materialized } from '../../src/topology/options.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { produceKeyed } from './support/keyed-produce.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { startEosApp } from './support/eos-app.js';

const PARTITIONS = 6;
const KEYS = Array.from({ length: 60 }, (_, i) => `key-${i}`);
/** Every key is counted this many times before the rebalance; nothing is produced during it. */
const COUNT = 2;

interface Instance {
  host: string;
  app: KafkaStreams;
  server: QueryServer;
}

/** A free port on 127.0.0.1 (the app must advertise it before it listens). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

async function getJson(url: string): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const res = await fetch(url, { redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text, and counted wrong by the caller
  }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') };
}

await describeOnEachBackend('query API across instances', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 300_000 : 90_000;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs * 3, intervalMs: 100, message });

  /** Writes each key `times` times to the partition the default partitioner gives it. */
  const produce = (input: string, times: number): Promise<void> => produceKeyed(ctx().cluster, input, { keys: KEYS, partitions: PARTITIONS, times });

  /** The local count of `key` on `app`, undefined when not local or not queryable now. */
  function localCount(app: KafkaStreams, key: string): number | undefined {
    try {
      return app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(key) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Every instance names the same owner for every key and the owner's local store has it at COUNT. */
  function settled(instances: readonly Instance[]): boolean {
    const byHost = new Map(instances.map((i) => [i.host, i]));
    for (const key of KEYS) {
      const answers = instances.map((i) => i.app.queryMetadataForKey('counts', key, Serdes.String()));
      const first = answers[0];
      if (first === undefined || first === KeyQueryMetadata.NOT_AVAILABLE) return false;
      if (answers.some((m) => m === KeyQueryMetadata.NOT_AVAILABLE || m.activeHost.port !== first.activeHost.port || m.activeHost.host !== first.activeHost.host)) return false;
      const owner = byHost.get(`${first.activeHost.host}:${first.activeHost.port}`);
      if (owner === undefined || localCount(owner.app, key) !== COUNT) return false;
    }
    return true;
  }

  /** Every key through every endpoint answers 200 with the owner's local value; the range has every key once. */
  async function allAnswer(instances: readonly Instance[]): Promise<void> {
    for (const via of instances) {
      for (const key of KEYS) {
        const meta = via.app.queryMetadataForKey('counts', key, Serdes.String());
        const owner = instances.find((i) => i.host === `${meta.activeHost.host}:${meta.activeHost.port}`);
        expect(owner, `owner of ${key}`).toBeDefined();
        const r = await getJson(`http://${via.host}/stores/counts/keys/${key}`);
        expect(r.status, `${key} via ${via.host}: ${JSON.stringify(r.body)}`).toBe(200);
        expect(r.body.value, `${key} via ${via.host}`).toBe(localCount(owner!.app, key));
        expect(r.body.host).toBe(owner!.host);
      }
      const range = await getJson(`http://${via.host}/stores/counts`);
      expect(range.status, JSON.stringify(range.body)).toBe(200);
      expect(range.body.entries.map((e: { key: string }) => e.key)).toEqual([...KEYS].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      expect(range.body.entries.every((e: { value: number }) => e.value === COUNT)).toBe(true);
    }
  }

  it('every key answers the owner\'s value through every instance, and during a rebalance only the right value or a 503', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const instances: Instance[] = [];
    const input = uniqueTopic(`query-in-${backend.name}`);
    const applicationId = uniqueGroup(`query-${backend.name}`);
    const start = async (): Promise<Instance> => {
      const port = await freePort();
      const host = `127.0.0.1:${port}`;
      const builder = new StreamsBuilder();
      builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() }).groupByKey().count(Materialized.as('counts'));
      const app = await startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-query-', apps, dirs, extra: { applicationServer: host, statestoreCacheMaxBytes: 0 } });
      const server = await serveQueries(app, { port, host: '127.0.0.1', applicationServer: host, forwardTimeoutMs: 3000 });
      return { host, app, server };
    };
    try {
      await ctx().admin.createTopic(input, { partitions: PARTITIONS });
      for (let i = 0; i < 3; i++) instances.push(await start());
      await produce(input, COUNT);
      await eventually(() => settled(instances), 'three instances agree on every key and its owner holds it');
      // 1. every key through every endpoint = the owner's local store; the range = every key once
      await allAnswer(instances);

      // 2. the rebalance loop: every live endpoint, every key, and the range, until told to stop
      const counts = { ok: 0, unavailable: 0, wrong: 0, okAfterSettle: 0, rangeOk: 0, range503: 0 };
      const wrong: string[] = [];
      /** Why the 503s came, by reason with keys and ports blanked out. */
      const reasons = new Map<string, number>();
      const live = [...instances];
      const phase = { settled: false };
      let stop = false;
      let retire: { host: string; done: () => void } | undefined;
      const classify = (what: string, r: { status: number; body: any; retryAfter: string | null }, correct: (body: any) => boolean, kind: 'key' | 'range') => {
        if (r.status === 200 && correct(r.body)) {
          if (kind === 'key') counts.ok++;
          else counts.rangeOk++;
          if (kind === 'key' && phase.settled) counts.okAfterSettle++;
        } else if ((r.status === 503 || (r.status === 504 && typeof r.body?.slowInstance === 'string')) && r.retryAfter === '1' && typeof r.body?.error === 'string') {
          // 504: an instance did not answer a forward within forwardTimeoutMs (issue 28 item 8), retryable as a 503
          if (kind === 'key') counts.unavailable++;
          else counts.range503++;
          const reason = String(r.body.error).replace(/key-\d+/g, '<key>').replace(/127\.0\.0\.1:\d+/g, '<host>').replace(/\(.*\)/g, '(…)');
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        } else {
          counts.wrong++;
          if (wrong.length < 10) wrong.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        }
      };
      const loop = (async () => {
        while (!stop) {
          if (retire) {
            live.splice(live.findIndex((i) => i.host === retire!.host), 1);
            retire.done();
            retire = undefined;
          }
          await Promise.all(
            live.flatMap((via) => [
              ...KEYS.map(async (key) => {
                const r = await getJson(`http://${via.host}/stores/counts/keys/${key}`).catch((e: Error) => ({ status: -1, body: String(e.cause ?? e), retryAfter: null }));
                classify(`${key} via ${via.host}`, r, (b) => b.value === COUNT && b.key === key, 'key');
              }),
              (async () => {
                const r = await getJson(`http://${via.host}/stores/counts`).catch((e: Error) => ({ status: -1, body: String(e.cause ?? e), retryAfter: null }));
                classify(`range via ${via.host}`, r, (b) => b.entries?.length === KEYS.length && b.entries.every((e: { value: number }) => e.value === COUNT), 'range');
              })(),
            ]),
          );
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await eventually(() => counts.ok >= KEYS.length * 3, 'one full round of answers before the rebalance');
      // one instance leaves: out of the loop first, then its server and app close
      const leaving = instances.pop()!;
      await new Promise<void>((done) => (retire = { host: leaving.host, done }));
      await leaving.server.close();
      await leaving.app.close();
      await eventually(() => settled(instances), 'two instances agree after one left');
      // a new instance joins (empty state directory: it restores what it is given)
      const joining = await start();
      instances.push(joining);
      live.push(joining);
      await eventually(() => settled(instances), 'three instances agree after one joined');
      phase.settled = true;
      await eventually(() => counts.okAfterSettle >= KEYS.length * 3, 'a full round of 200s after the group settled');
      stop = true;
      await loop;
      console.info(
        `[query API, ${backend.name}] rebalance loop: key answers 200=${counts.ok} (after settling ${counts.okAfterSettle}), 503=${counts.unavailable}, wrong=${counts.wrong}; range answers 200=${counts.rangeOk}, 503=${counts.range503}`,
      );
      console.info(`[query API, ${backend.name}] 503 reasons: ${[...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} x ${reason}`).join(' | ')}`);
      expect(wrong, 'answers that were neither the right value nor a 503 with Retry-After').toEqual([]);
      expect(counts.wrong).toBe(0);
      expect(counts.okAfterSettle).toBeGreaterThan(0);
      expect(joining.app.metadataForAllStreamsClients().map((m) => m.host).length).toBe(3);

      // 3. settled: every key answers 200 again from every endpoint
      await allAnswer(instances);
    } finally {
      await Promise.all(instances.map((i) => i.server.close()));
      await Promise.all(apps.map((a) => a.close()));
      const { rmSync } = await import('node:fs');
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
