/**
 * Which Kafka the tests talk to, as decided once by the vitest global setup
 * (test/setup/global-setup.ts), and `describeKafka` for broker-backed suites.
 */
import { describe, inject } from 'vitest';

function injected<K extends 'kafkaBrokers' | 'kafkaSkipReason'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined; // not running under vitest's global setup
  }
}

/**
 * Bootstrap addresses of the Kafka broker(s) for this test run, or `undefined`
 * when broker-backed tests must be skipped. Source, in order: the global
 * setup's `inject('kafkaBrokers')`, then `process.env.KAFKA_BROKERS`
 * (comma-separated) when the setup did not run.
 */
export function kafkaBrokers(): string[] | undefined {
  const brokers = injected('kafkaBrokers');
  if (brokers && brokers.length > 0) return [...brokers];
  if (injected('kafkaSkipReason')) return undefined;
  const env = process.env.KAFKA_BROKERS?.split(',').map((s) => s.trim()).filter(Boolean);
  return env && env.length > 0 ? env : undefined;
}

/** Why broker-backed suites are skipped, or `undefined` when a broker is available. */
export function kafkaSkipReason(): string | undefined {
  if (kafkaBrokers()) return undefined;
  return injected('kafkaSkipReason') ?? 'no Kafka broker: set KAFKA_BROKERS or install Java 17+ and Maven';
}

/**
 * The broker addresses; throws when there is none. Call it inside tests or hooks
 * of a {@link describeKafka} suite (which is skipped when there is no broker).
 */
export function requireBrokers(): string[] {
  const brokers = kafkaBrokers();
  if (!brokers) throw new Error(`no Kafka broker for this test: ${kafkaSkipReason()}`);
  return brokers;
}

/**
 * `describe` for suites that need a real Kafka broker. With no broker the suite
 * is registered as skipped and its name carries the reason, e.g.
 * `kafka baseline [skipped: java not found ...]`. `fn` receives the broker
 * addresses (an empty array when skipped: use them only inside tests/hooks).
 *
 * @example
 * describeKafka('kafka baseline', (brokers) => {
 *   it('produces', async () => { const topic = await createTopic(brokers, uniqueTopic('p')); ... });
 * });
 */
export function describeKafka(name: string, fn: (brokers: string[]) => void): void {
  const brokers = kafkaBrokers();
  if (brokers) describe(name, () => fn(brokers));
  else describe.skip(`${name} [skipped: ${kafkaSkipReason()}]`, () => fn([]));
}
