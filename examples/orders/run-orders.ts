/**
 * Runs the orders pipeline end to end and summarizes it: generate input,
 * create topics, run the app exactly-once until the input is consumed and
 * committed, read the committed outputs back, close everything.
 */
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { ClusterPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { KafkaStreams, deadLetterQueueHandler, type KafkaStreamsConfig } from '../../src/index.js';
import { EmbeddedKafkaCluster } from '../../src/testing.js';
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
  await produceRecords(cluster, topics.input, records);

  const dlq = deadLetterQueueHandler({ topic: topics.deadLetter, logger, logLevel: 'debug' });
  const app = new KafkaStreams(buildOrdersTopology(topics), {
    applicationId,
    cluster,
    processingGuarantee: 'exactly_once',
    productionExceptionHandler: dlq,
    deserializationExceptionHandler: dlq,
    logger,
    ...options.config,
  });
  const started = Date.now();
  let elapsedMs = 0;
  try {
    await app.start();
    await waitUntilConsumed(cluster, applicationId, topics.input, {
      timeoutMs: options.timeoutMs ?? 180_000,
      failed: () => (app.state === 'ERROR' || app.state === 'PENDING_ERROR' ? (app.error ?? new Error(`app in state ${app.state}`)) : undefined),
    });
    elapsedMs = Date.now() - started;
  } finally {
    await app.close();
  }
  const metrics = app.metrics();
  const committed = await readCommitted(cluster, outputTopics(topics));
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
    finalState: app.state,
  };
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
    s.recordsProcessed >= e.inputs
  );
}
