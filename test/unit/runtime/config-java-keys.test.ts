/**
 * Issue 29 item 11a: a Kafka (Java) property name in the KafkaStreams config
 * object gets an error naming the sluice key (or the client config) to use.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { KEY_RULES } from '../../../src/cli/internal/properties-table.js';

function message(config: Record<string, unknown>): string {
  try {
    resolveConfig(config as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`config ${JSON.stringify(config)} was accepted`);
}

describe('Java-style keys in the config object (issue 29 item 11a)', () => {
  it.each([
    ['application.id', 'applicationId'],
    ['bootstrap.servers', 'bootstrapServers'],
    ['commit.interval.ms', 'commitIntervalMs'],
    ['processing.guarantee', 'processingGuarantee'],
    ['cache.max.bytes.buffering', 'statestoreCacheMaxBytes'],
    ['default.deserialization.exception.handler', 'deserializationExceptionHandler'],
  ])("'%s' names '%s'", (key, sluice) => {
    const text = message({ applicationId: 'a', bootstrapServers: ['b:9092'], [key]: 'x' });
    expect(text).toContain(`Unknown config key '${key}' (a Kafka property name: sluice's key is '${sluice}'`);
  });

  it('every Kafka key the properties mapping gives a sluice key to names that key here too', () => {
    const rules = Object.entries(KEY_RULES).filter(([key, rule]) => rule.sluice !== '' && !key.includes(':'));
    expect(rules.length).toBeGreaterThan(20);
    for (const [key, rule] of rules) {
      expect(message({ applicationId: 'a', bootstrapServers: ['b:9092'], [key]: 1 }), key).toContain(`sluice's key is '${rule.sluice}'`);
    }
  });

  it.each([
    ['max.poll.interval.ms', "consumerConfig: { 'max.poll.interval.ms': ... }"],
    ['consumer.max.poll.interval.ms', "consumerConfig: { 'max.poll.interval.ms': ... }"],
    ['producer.linger.ms', "producerConfig: { 'linger.ms': ... }"],
  ])("client key '%s' names the client config", (key, where) => {
    expect(message({ applicationId: 'a', bootstrapServers: ['b:9092'], [key]: 1 })).toContain(`put it in ${where}`);
  });

  it('another dotted key says the keys are camelCase; a plain typo gets no hint', () => {
    expect(message({ applicationId: 'a', bootstrapServers: ['b:9092'], 'foo.bar': 1 })).toContain("sluice's config keys are camelCase");
    expect(message({ applicationId: 'a', bootstrapServers: ['b:9092'], aplicationId: 1 })).toMatch(/^Unknown config key 'aplicationId'; known keys/);
  });
});
