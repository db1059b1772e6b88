/**
 * Issue 28 item 7: a duration above 2^31-1 ms used to be accepted and Node
 * fired its timer after 1 ms (taskRestartBackoffMs 3e9 restarted a failing
 * task 1,965 times in 3 s). Every duration key goes through one check.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { DURATION_KEYS, DURATION_MIN, MAX_TIMER_MS } from '../../../src/runtime/config-durations.js';
import { resolveSettings } from '../../../src/eos/producer-types.js';
import { EmbeddedKafkaCluster, KafkaStreams, upperTopology } from './fixtures.js';

const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
afterAll(() => cluster.close());

describe('duration config keys (issue 28 item 7)', () => {
  it('lists the keys that overflowed, among them the restart back-off and the group timers', () => {
    for (const key of ['taskRestartBackoffMs', 'probingRebalanceIntervalMs', 'heartbeatIntervalMs', 'sessionTimeoutMs', 'commitIntervalMs']) {
      expect(DURATION_KEYS).toContain(key);
    }
  });

  it.each(DURATION_KEYS.flatMap((key) => [3e9, MAX_TIMER_MS + 1, ...(DURATION_MIN[key] === 0 ? [] : [0]), -5, Number.NaN, 1.5, '100'].map((value) => [key, value] as const)))(
    'refuses %s = %s with a ConfigError naming the key and the maximum',
    (key, value) => {
      let error: unknown;
      try {
        new KafkaStreams(upperTopology('in', 'out'), { applicationId: 'a', cluster, processingGuarantee: 'at_least_once', [key]: value } as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`'${key}'`);
      expect((error as Error).message).toContain('2147483647');
    },
  );

  it('lists every millisecond key the config accepts (a new *Ms key must be added)', () => {
    for (const key of ['stateCleanupDelayMs', 'transactionTimeoutMs', 'deliveryTimeoutMs', 'repartitionPurgeIntervalMs']) expect(DURATION_KEYS).toContain(key);
  });

  it('repartitionPurgeIntervalMs keeps 0 allowed (purge after every commit), as config-clients and Kafka do', () => {
    expect(DURATION_MIN.repartitionPurgeIntervalMs).toBe(0);
    expect(resolveConfig({ applicationId: 'a', cluster, repartitionPurgeIntervalMs: 0 }).repartitionPurgeIntervalMs).toBe(0);
    expect(resolveConfig({ applicationId: 'a', cluster, repartitionPurgeIntervalMs: MAX_TIMER_MS }).repartitionPurgeIntervalMs).toBe(MAX_TIMER_MS);
    expect(() => resolveConfig({ applicationId: 'a', cluster, repartitionPurgeIntervalMs: 3e9 })).toThrow(
      "Config 'repartitionPurgeIntervalMs' must be a whole number of milliseconds from 0 to 2147483647 (Node timers cannot wait longer: a larger delay would fire after 1 ms), got 3000000000",
    );
    expect(() => resolveConfig({ applicationId: 'a', cluster, repartitionPurgeIntervalMs: -1 })).toThrow(/'repartitionPurgeIntervalMs' must be a whole number of milliseconds from 0 to 2147483647/);
  });

  it.each([
    ['producerConfig', 'linger.ms'],
    ['producerConfig', 'max.block.ms'],
    ['producerConfig', 'delivery.timeout.ms'],
    ['consumerConfig', 'max.poll.interval.ms'],
    ['consumerConfig', 'fetch.max.wait.ms'],
    ['consumerConfig', 'session.timeout.ms'],
    ['adminConfig', 'request.timeout.ms'],
    ['adminConfig', 'retry.backoff.max.ms'],
  ])('refuses %s[%s] above 2147483647 (a number or a properties-file string), naming the key', (client, key) => {
    for (const value of [3e9, '3000000000']) {
      expect(() => resolveConfig({ applicationId: 'a', cluster, processingGuarantee: 'at_least_once', [client]: { [key]: value } } as never)).toThrow(
        `Config ${client}['${key}'] must be a whole number of milliseconds from`,
      );
    }
    expect(() => resolveConfig({ applicationId: 'a', cluster, processingGuarantee: 'at_least_once', [client]: { [key]: String(MAX_TIMER_MS) } } as never)).not.toThrow(/milliseconds/);
  });

  it('says why a value above the maximum is refused', () => {
    expect(() => resolveConfig({ applicationId: 'a', cluster, taskRestartBackoffMs: 3e9 })).toThrow(/Node timers cannot wait longer/);
  });

  it('accepts the maximum itself', () => {
    const config = resolveConfig({ applicationId: 'a', cluster, processingGuarantee: 'at_least_once', taskRestartBackoffMs: MAX_TIMER_MS, probingRebalanceIntervalMs: MAX_TIMER_MS, stateCleanupDelayMs: MAX_TIMER_MS });
    expect(config.taskRestartBackoffMs).toBe(MAX_TIMER_MS);
    expect(config.probingRebalanceIntervalMs).toBe(MAX_TIMER_MS);
  });
});

describe('producer durations (issue 28 item 7)', () => {
  it.each(['lingerMs', 'deliveryTimeoutMs', 'retryBackoffMs', 'maxBlockMs'])('refuses %s above 2147483647 naming the option and the maximum', (key) => {
    expect(() => resolveSettings({ [key]: 3e9 } as never)).toThrow(new RegExp(`option '${key}' must be a whole number of milliseconds from \\d to 2147483647`));
  });

  it('keeps 0 allowed where it was (linger, back-off, max block)', () => {
    expect(resolveSettings({ lingerMs: 0, retryBackoffMs: 0, maxBlockMs: 0 } as never).lingerMs).toBe(0);
  });
});
