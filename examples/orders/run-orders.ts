/**
 * Runs the orders pipeline end to end and summarizes it: generate input,
 * create topics, run the app exactly-once over the first half of the input,
 * stop it, start it again (same applicationId and state directory: the
 * revenue store and the customers table continue where they were) for the
 * second half, read the committed outputs back, close everything. Each phase
 * writes its customer rows (all customers, then the upgrades), then its
 * orders, without waiting in between: the join's task takes its records in
 * timestamp order and waits for a customers partition that has records not
 * fetched yet (`maxTaskIdleMs`, default 0, KIP-695), so each order still
 * joins the row that was current when it was placed.
 */
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { ClusterPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams, Serdes, deadLetterQueueHandler, type KafkaStreamsConfig } from '../../src/index.js';
import { EmbeddedKafkaCluster } from '../../src/testing.js';
import { customerRecords, type CustomerOrder, type Tier } from './customers.js';
import { generateOrders, type ExpectedOutputs } from './generator.js';
import { produceRecords, readCommitted, waitUntilConsumed } from './io.js';
import { buildOrdersTopology } from './topology.js';
import { createOrdersTopics, ordersTopics, outputTopics, type OrdersTopics } from './topics.js';

/** Options of {@link runOrdersPipeline}. */
export interface OrdersRunOptions {
  /** Orders to generate (default 10,000). */
  count?: number;
  /** Input partitions (default 3). */
  partitions?: number;
  seed?: number;
  /** Real Kafka brokers; without them (and without `cluster`) a fresh embedded cluster is used. */
  bootstrapServers?: string[];
  /** A cluster to use (closed by the caller). */
  cluster?: ClusterPort;
  /** Topic name prefix (default: unique per run on Kafka, empty on a fresh embedded cluster). */
  topicPrefix?: string;
  applicationId?: string;
  /** Logger for the app (default silent). */
  logger?: Logger;
  /** Give up after this long (default 180 s). */
  timeoutMs?: number;
  /** Extra KafkaStreams config (e.g. commitIntervalMs). */
  config?: Partial<KafkaStreamsConfig>;
}

/** What a run did. */
export interface OrdersSummary {
  cluster: 'embedded' | 'kafka';
  topics: OrdersTopics;
  applicationId: string;
  expected: Omit<ExpectedOutputs, 'seqs'>;
  /** Input records the app consumed (metrics). */
  recordsProcessed: number;
  /** Output records visible to read_committed readers, per topic and in total (dead-letter topic excluded). */
  outputsCommitted: { regions: Record<'eu' | 'na' | 'apac', number>; status: number; total: number };
  /** Output records the production handler dropped (metrics). */
  dropped: number;
  /** Input records skipped by the deserialization handler (metrics). */
  skipped: number;
  /** Records on the dead-letter topic (read_committed). */
  deadLettered: number;
  commits: number;
  aborts: number;
  /** Wall time from app start to input consumed (ms). */
  elapsedMs: number;
  /** recordsProcessed per second over elapsedMs. */
  throughput: number;
  /** Final app state after close. */
  finalState: string;
  /** The last committed revenue per region (read_committed from the revenue topic). */
  revenue: Record<'eu' | 'na' | 'apac', number>;
  /** Revenue-store records the restarted app restored from the changelog (0: the persistent store resumed from its checkpoint). */
  restoredOnRestart: number;
  /** Orders joined with their customer (read_committed from the orders-with-customer topic), per tier the join found. */
  tiers: Record<Tier, number>;
  /** Customer rows produced (all in the first half, the upgrades before the second). */
  customerRows: number;
}

/** Runs the pipeline once and returns its summary. */
export async function runOrdersPipeline(options: OrdersRunOptions = {}): Promise<OrdersSummary> {
  const count = options.count ?? 10_000;
  const partitions = options.partitions ?? 3;
  const runId = `${Date.now().toString(36)}-${process.pid}`;
  const ownCluster = options.cluster === undefined;
  const cluster: ClusterPort =
    options.cluster ?? (options.bootstrapServers ? createKafkaCluster({ bootstrapServers: options.bootstrapServers }) : new EmbeddedKafkaCluster());
  const topicPrefix = options.topicPrefix ?? (cluster.kind === 'kafka' || !ownCluster ? `orders-${runId}-` : '');
  const topics = ordersTopics(topicPrefix);
  const applicationId = options.applicationId ?? `orders-app-${runId}`;
  const logger = options.logger ?? pino({ level: 'silent' });
  const { records, expected } = generateOrders({ count, partitions, seed: options.seed, idPrefix: `o-${runId}` });

  const admin = cluster.admin();
  try {
    await createOrdersTopics(admin, topics, partitions);
  } finally {
    await admin.close();
  }
  const dlq = deadLetterQueueHandler({ topic: topics.deadLetter, logger, logLevel: 'debug' });
  const stateDir = mkdtempSync(join(tmpdir(), 'sluice-orders-'));
  const half = Math.floor(records.length / 2);
  const totals = { recordsProcessed: 0, droppedRecords: 0, recordsSkipped: 0, commits: 0, aborts: 0 };
  let elapsedMs = 0;
  let restoredOnRestart = 0;
  let finalState = 'NOT_RUNNING';
  let customerRows = 0;
  // Two runs of the same app: the second one is a restart, and its state (the revenue per region, the customers table) continues.
  for (const [phase, slice] of [records.slice(0, half), records.slice(half)].entries()) {
    const app = new KafkaStreams(buildOrdersTopology(topics), {
      applicationId,
      cluster,
      processingGuarantee: 'exactly_once',
      productionExceptionHandler: dlq,
      deserializationExceptionHandler: dlq,
      logger,
      stateDir,
      ...options.config,
    });
    if (phase === 1) app.setGlobalStateRestoreListener({ onBatchRestored: (_tp, _store, _end, n) => (restoredOnRestart += n) });
    const started = Date.now();
    try {
      await app.start();
      const wait = {
        timeoutMs: options.timeoutMs ?? 180_000,
        failed: () => (app.state === 'ERROR' || app.state === 'PENDING_ERROR' ? (app.error ?? new Error(`app in state ${app.state}`)) : undefined),
      };
      // 1. the customers of this phase, written before (so with earlier timestamps than) any order of the phase:
      //    the join takes them first, so each order joins the row that was current when it was placed
      const customers = customerRecords(phase === 0 ? 0 : 1, partitions);
      customerRows += customers.length;
      await produceRecords(cluster, topics.customers, customers);
      // 2. the orders
      await produceRecords(cluster, topics.input, slice);
      // 3. the customers and the input, then the repartition topics feeding the join and the revenue store (their ends are final once the input is consumed)
      await waitUntilConsumed(cluster, applicationId, topics.customers, wait);
      await waitUntilConsumed(cluster, applicationId, topics.input, wait);
      await waitUntilConsumed(cluster, applicationId, `${applicationId}-with-customer-repartition`, wait);
      await waitUntilConsumed(cluster, applicationId, `${applicationId}-by-region-repartition`, wait);
      elapsedMs += Date.now() - started;
    } finally {
      await app.close();
    }
    const m = app.metrics();
    for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += m[k];
    finalState = app.state;
  }
  rmSync(stateDir, { recursive: true, force: true });
  const metrics = totals;
  const committed = await readCommitted(cluster, [...outputTopics(topics), topics.revenue, topics.customerOrders]);
  if (ownCluster && cluster instanceof EmbeddedKafkaCluster) await cluster.close();
  const n = (t: string): number => committed.get(t)?.length ?? 0;
  const regions = { eu: n(topics.regions.eu), na: n(topics.regions.na), apac: n(topics.regions.apac) };
  const { seqs: _seqs, ...expectedCounts } = expected;
  return {
    cluster: cluster.kind,
    topics,
    applicationId,
    expected: expectedCounts,
    recordsProcessed: metrics.recordsProcessed,
    outputsCommitted: { regions, status: n(topics.status), total: regions.eu + regions.na + regions.apac + n(topics.status) },
    dropped: metrics.droppedRecords,
    skipped: metrics.recordsSkipped,
    deadLettered: n(topics.deadLetter),
    commits: metrics.commits,
    aborts: metrics.aborts,
    elapsedMs,
    throughput: elapsedMs > 0 ? Math.round((metrics.recordsProcessed * 1000) / elapsedMs) : 0,
    finalState,
    revenue: lastRevenue(committed.get(topics.revenue) ?? []),
    restoredOnRestart,
    tiers: countTiers(committed.get(topics.customerOrders) ?? []),
    customerRows,
  };
}

/** Joined orders per tier. */
function countTiers(records: ReadonlyArray<{ value: Buffer | null }>): Record<Tier, number> {
  const tiers: Record<Tier, number> = { gold: 0, silver: 0, bronze: 0 };
  for (const r of records) if (r.value) tiers[(JSON.parse(r.value.toString()) as CustomerOrder).tier]++;
  return tiers;
}

/** The last value per region of the revenue topic (8-byte longs). */
function lastRevenue(records: ReadonlyArray<{ key: Buffer | null; value: Buffer | null }>): Record<'eu' | 'na' | 'apac', number> {
  const revenue = { eu: 0, na: 0, apac: 0 };
  const long = Serdes.Long();
  for (const r of records) {
    const region = r.key?.toString() as keyof typeof revenue | undefined;
    if (region && region in revenue && r.value) revenue[region] = long.deserialize('revenue-by-region', r.value) ?? 0;
  }
  return revenue;
}

/** The summary as printable lines. */
export function formatSummary(s: OrdersSummary): string {
  const e = s.expected;
  const f = (n: number): string => n.toLocaleString('en-US');
  const goodOutputs = e.regions.eu + e.regions.na + e.regions.apac + e.status;
  return [
    `orders pipeline on ${s.cluster === 'embedded' ? 'the embedded cluster' : 'Kafka'} (exactly_once, app ${s.applicationId})`,
    `  input orders           ${f(e.inputs)}  (invalid ${f(e.invalid)}, undecodable ${f(e.garbled)}, too large ${f(e.tooLarge)}, missing id ${f(e.missingKey)})`,
    `  records processed      ${f(s.recordsProcessed)}`,
    `  outputs committed      ${f(s.outputsCommitted.total)}  (eu ${f(s.outputsCommitted.regions.eu)}, na ${f(s.outputsCommitted.regions.na)}, apac ${f(s.outputsCommitted.regions.apac)}, status ${f(s.outputsCommitted.status)}; expected ${f(goodOutputs)})`,
    `  dropped outputs        ${f(s.dropped)}  (expected ${f(e.dropped)})`,
    `  dead-lettered          ${f(s.deadLettered)}  (expected ${f(e.deadLettered)}) -> ${s.topics.deadLetter}`,
    `  revenue per region     eu ${f(s.revenue.eu)}, na ${f(s.revenue.na)}, apac ${f(s.revenue.apac)}  (expected eu ${f(e.revenue.eu)}, na ${f(e.revenue.na)}, apac ${f(e.revenue.apac)})`,
    `  restart after half     the revenue store continued; ${f(s.restoredOnRestart)} records restored from its changelog`,
    `  joined with customer   gold ${f(s.tiers.gold)}, silver ${f(s.tiers.silver)}, bronze ${f(s.tiers.bronze)}  (expected gold ${f(e.tiers.gold)}, silver ${f(e.tiers.silver)}, bronze ${f(e.tiers.bronze)}; ${f(s.customerRows)} customer rows)`,
    `  commits / aborts       ${f(s.commits)} / ${f(s.aborts)}`,
    `  throughput             ${f(s.throughput)} records/s  (${(s.elapsedMs / 1000).toFixed(2)} s)`,
  ].join('\n');
}

/** True when the committed outputs are exactly the expected ones. */
export function summaryMatchesExpected(s: OrdersSummary): boolean {
  const e = s.expected;
  return (
    s.outputsCommitted.regions.eu === e.regions.eu &&
    s.outputsCommitted.regions.na === e.regions.na &&
    s.outputsCommitted.regions.apac === e.regions.apac &&
    s.outputsCommitted.status === e.status &&
    s.deadLettered === e.deadLettered &&
    s.dropped === e.dropped &&
    s.revenue.eu === e.revenue.eu &&
    s.revenue.na === e.revenue.na &&
    s.revenue.apac === e.revenue.apac &&
    s.tiers.gold === e.tiers.gold &&
    s.tiers.silver === e.tiers.silver &&
    s.tiers.bronze === e.tiers.bronze &&
    s.recordsProcessed >= e.inputs
  );
}
