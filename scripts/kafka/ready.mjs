// Waits until a Kafka cluster answers requests: a kafkajs admin client
// connects and lists topics (a Metadata round trip), not merely an open port.
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;

/** One attempt: resolves with the topic names, rejects when the cluster does not answer. */
export async function probeCluster(brokers, { timeoutMs = 3000 } = {}) {
  const kafka = new Kafka({
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
 * @param {{ timeoutMs?: number, intervalMs?: number, isAlive?: () => boolean }} options
 *   isAlive: stop waiting early when it returns false (the broker process died).
 */
export async function waitForCluster(brokers, { timeoutMs = 90_000, intervalMs = 250, isAlive } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    if (isAlive && !isAlive()) {
      throw new Error('the broker process exited before it accepted requests', { cause: lastError });
    }
    try {
      await probeCluster(brokers);
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
