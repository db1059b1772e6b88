// Waits until a Kafka cluster answers requests: a kafkajs admin client
// connects and lists topics (a Metadata round trip), not merely an open port.
import { randomUUID } from 'node:crypto';
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;

/** One attempt: resolves with the topic names, rejects when the cluster does not answer. */
export async function probeCluster(brokers, { timeoutMs = 3000, client = {} } = {}) {
  const kafka = new Kafka({
    ...client,
    clientId: 'sluice-kafka-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    return await admin.listTopics();
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/**
 * Polls {@link probeCluster} until it succeeds.
 * @param {string[]} brokers
 * @param {{ timeoutMs?: number, intervalMs?: number, isAlive?: () => boolean, client?: object }} options
 *   isAlive: stop waiting early when it returns false (the broker process died).
 *   client: extra kafkajs options (ssl, sasl) for a secure broker.
 */
export async function waitForCluster(brokers, { timeoutMs = 90_000, intervalMs = 250, isAlive, client } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    if (isAlive && !isAlive()) {
      throw new Error('the broker process exited before it accepted requests', { cause: lastError });
    }
    try {
      await probeCluster(brokers, { client });
      return;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`Kafka at ${brokers.join(',')} did not answer within ${timeoutMs} ms`, { cause: lastError });
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Makes a freshly started broker fully usable before tests hit it: creates and
 * loads `__consumer_offsets` (FindCoordinator + OffsetFetch for several groups)
 * and `__transaction_state` (InitProducerId for several transactional ids),
 * retrying NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS (which kafkajs' admin
 * does not retry) until every probe passes. Creates no topic. `client`: extra
 * kafkajs options (ssl, sasl) for a secure broker.
 */
export async function warmUp(brokers, { timeoutMs = 60_000, client = {} } = {}) {
  const kafka = new Kafka({
    ...client,
    clientId: 'sluice-kafka-warmup',
    brokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1000 },
  });
  const deadline = Date.now() + timeoutMs;
  const untilOk = async (what, fn) => {
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`warm-up (${what}) failed: ${err?.message ?? err}`, { cause: err });
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (let i = 0; i < 16; i++) {
      const groupId = `sluice-warmup-${randomUUID()}`;
      await untilOk('group coordinator', () => admin.fetchOffsets({ groupId, topics: [] }));
    }
  } finally {
    await admin.disconnect().catch(() => {});
  }
  for (let i = 0; i < 4; i++) {
    const transactionalId = `sluice-warmup-${randomUUID()}`;
    await untilOk('transaction coordinator', async () => {
      const producer = kafka.producer({ transactionalId, idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      try {
        const tx = await producer.transaction();
        await tx.abort();
      } finally {
        await producer.disconnect().catch(() => {});
      }
    });
  }
}
