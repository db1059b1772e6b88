/**
 * The live UI's data over a real app on the embedded cluster: per-node record
 * counters, task states, the last handler decisions (with their coordinates)
 * and the dead-letter count, the topology structure against describe(), and
 * the UI's lifetime (closed with the app; up after an error shutdown until close()).
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { deadLetterQueueHandler, KafkaStreams, Serdes, StreamsBuilder, type UiServer, type UiSnapshot, type UiTopology } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';
import { DecisionLog } from '../../../src/runtime/internal/decision-log.js';
import { buildOrdersTopology } from '../../../examples/orders/topology.js';
import { ordersTopics } from '../../../examples/orders/topics.js';
import { waitFor } from '../../helpers/index.js';

const S = Serdes.String();
const silent = pino({ level: 'silent' });

function topology() {
  const builder = new StreamsBuilder();
  builder
    .stream('in', { keySerde: S, valueSerde: Serdes.Json<{ n: number }>() })
    .filter((_k, v) => v.n % 2 === 0, 'even')
    .mapValues((v) => String(v.n), 'to-text')
    .to('out', { keySerde: S, valueSerde: S, name: 'to-out' });
  return builder.build();
}

async function json<T>(ui: UiServer, path: string): Promise<T> {
  return (await (await fetch(`${ui.url}${path}`)).json()) as T;
}

let cluster: EmbeddedKafkaCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('app.serveUi() data', () => {
  it('counts records per node, shows task states, decisions with coordinates and the dead-lettered total', async () => {
    cluster = new EmbeddedKafkaCluster();
    for (const t of ['in', 'out', 'dlq']) await cluster.createTopic(t, { partitions: 1 });
    const dlq = deadLetterQueueHandler({ topic: 'dlq', logger: silent });
    const app = new KafkaStreams(topology(), { applicationId: 'ui-data', cluster, deserializationExceptionHandler: dlq, logger: silent, commitIntervalMs: 50 });
    const ui = await app.serveUi({ port: 0 });
    expect(ui.host).toBe('127.0.0.1');
    try {
      await app.start();
      await cluster.produce('in', [1, 2, 3, 4, 5, 6].map((n) => ({ key: `k${n}`, value: JSON.stringify({ n }) })));
      await cluster.produce('in', [{ key: 'bad', value: 'not json' }]);
      await waitFor(async () => (await cluster!.readCommitted('dlq')).length === 1 && app.metrics().recordsProcessed === 7, { timeoutMs: 20_000 });
      const snap = await json<UiSnapshot>(ui, 'snapshot');
      expect(snap.nodes).toEqual({ 'KSTREAM-SOURCE-0000000000': 6, even: 6, 'to-text': 3, 'to-out': 3 });
      expect(snap.state).toBe('RUNNING');
      expect(snap.tasks).toEqual([expect.objectContaining({ id: '0_0', state: 'RUNNING', owned: true, partitions: [{ topic: 'in', partition: 0, lag: 0 }], recordsProcessed: 7 })]);
      expect(snap.totals.deadLettered).toBe(1);
      expect(snap.decisions).toEqual([
        expect.objectContaining({ slot: 'deserialization', taskId: '0_0', topic: 'in', partition: 0, offset: 6, node: 'KSTREAM-SOURCE-0000000000', errorClass: 'SerializationError', answer: 'CONTINUE', deadLetters: 1 }),
      ]);
      const topo = await json<UiTopology>(ui, 'topology');
      const described = topology().describe().subtopologies.flatMap((s) => s.nodes.map((n) => n.name)).sort();
      expect(topo.subtopologies.flatMap((s) => s.nodes.map((n) => n.name)).sort()).toEqual(described);
    } finally {
      await app.close();
    }
    await expect(fetch(ui.url)).rejects.toThrow(); // closed with the app
  });

  it('async steps: in-flight calls, latency and queue time in app.metrics().asyncProcessors and the snapshot', async () => {
    cluster = new EmbeddedKafkaCluster();
    for (const t of ['in', 'out']) await cluster.createTopic(t, { partitions: 1 });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('in', { keySerde: S, valueSerde: S })
      .mapValuesAsync(async (v: string) => (await gate, v.toUpperCase()), { concurrency: 8, named: 'enrich' })
      .to('out', { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build(), { applicationId: 'ui-async', cluster, logger: silent, commitIntervalMs: 50, asyncCallTimeoutMs: 20_000 });
    const ui = await app.serveUi({ port: 0 });
    try {
      await app.start();
      await cluster.produce('in', ['a', 'b', 'a'].map((key, i) => ({ key, value: `v${i}` })));
      await waitFor(() => app.metrics().asyncProcessors?.enrich?.inFlight === 3, { timeoutMs: 20_000 });
      const snap = await json<UiSnapshot>(ui, 'snapshot');
      expect(snap.asyncNodes?.enrich).toMatchObject({ inFlight: 3, failed: 0 });
      open();
      await waitFor(async () => (await cluster!.readCommitted('out')).length === 3, { timeoutMs: 20_000 });
      expect(app.metrics().asyncProcessors?.enrich).toMatchObject({ inFlight: 0, calls: 3, failed: 0 });
      expect(app.metrics().asyncProcessors?.enrich?.avgQueueMs).toBeGreaterThan(0); // the second 'a' waited behind the first
    } finally {
      await app.close();
    }
  });

  it('stays up after an error shutdown (showing ERROR and the FAIL decision) until close()', async () => {
    cluster = new EmbeddedKafkaCluster();
    for (const t of ['in', 'out']) await cluster.createTopic(t, { partitions: 1 });
    const app = new KafkaStreams(topology(), { applicationId: 'ui-error', cluster, logger: silent });
    const ui = await app.serveUi({ port: 0 });
    await app.start();
    await cluster.produce('in', [{ key: 'bad', value: 'not json' }]);
    await waitFor(() => app.state === 'ERROR', { timeoutMs: 20_000 });
    const snap = await json<UiSnapshot>(ui, 'snapshot');
    expect(snap.state).toBe('ERROR');
    expect(snap.decisions.map((d) => [d.slot, d.answer, d.handler])).toEqual([['deserialization', 'FAIL', 'LogAndFailDeserializationExceptionHandler']]);
    await app.close();
    await expect(fetch(ui.url)).rejects.toThrow();
  });

  it('marks the repartition topics and the changelogs of the orders topology', async () => {
    const topics = ordersTopics('');
    const app = new KafkaStreams(buildOrdersTopology(topics), { applicationId: 'orders-ui', cluster: (cluster = new EmbeddedKafkaCluster()), logger: silent });
    const ui = await app.serveUi({ port: 0, host: '127.0.0.1' });
    try {
      const topo = await json<UiTopology>(ui, 'topology');
      expect([...topo.repartitionTopics].sort()).toEqual(['by-region-repartition', 'with-customer-repartition']);
      expect(topo.changelogs).toEqual({ 'revenue-by-region': 'orders-ui-revenue-by-region-changelog', 'customers-store': 'orders-ui-customers-store-changelog' });
      expect(topo.text).toContain('Sub-topology: 0');
    } finally {
      await app.close();
    }
  });
});

describe('DecisionLog', () => {
  it('keeps the last `capacity` decisions, oldest first, and counts dead letters of CONTINUE answers only', () => {
    const log = new DecisionLog(3);
    const context = { topic: 't', partition: 0, offset: 0, headers: {}, timestamp: 0, processorNodeId: 'n', taskId: '0_0' };
    for (let i = 0; i < 5; i++) {
      log.add({ slot: 'processing', handler: 'h', context: { ...context, offset: i }, error: new TypeError(`e${i}`), response: i === 4 ? 'FAIL' : 'CONTINUE', deadLetters: 1 });
    }
    expect(log.list().map((d) => [d.offset, d.answer, d.errorClass, d.message])).toEqual([
      [2, 'CONTINUE', 'TypeError', 'e2'],
      [3, 'CONTINUE', 'TypeError', 'e3'],
      [4, 'FAIL', 'TypeError', 'e4'],
    ]);
    expect(log.deadLettered).toBe(4);
  });
});
