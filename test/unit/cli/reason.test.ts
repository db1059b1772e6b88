import { describe, expect, it } from 'vitest';
import { ConfigError, KafkaProtocolError, StreamsError } from '../../../src/errors.js';
import { connectionHint, oneLineReason } from '../../../src/cli/internal/reason.js';

describe('one-line reasons', () => {
  it('keep config errors as they are and prefix others with their class', () => {
    expect(oneLineReason(new ConfigError("Config 'applicationId' is required"))).toBe("Config 'applicationId' is required");
    expect(oneLineReason(new TypeError('x is not a function\n    at foo'))).toBe('TypeError: x is not a function');
    expect(oneLineReason(new StreamsError('task failed', { cause: new Error('disk full') }))).toBe('StreamsError: task failed (cause: disk full)');
    expect(oneLineReason('plain')).toBe('Error: plain');
  });

  it('hint at the brokers when they cannot be reached', () => {
    const refused = new KafkaProtocolError(13, 'admin connect: network error: connect ECONNREFUSED 127.0.0.1:1');
    expect(connectionHint(refused, ['127.0.0.1:1'])).toContain('is Kafka reachable at 127.0.0.1:1? (check --bootstrap-servers / KAFKA_BROKERS');
    expect(connectionHint(refused, undefined)).toBe('');
    expect(connectionHint(new Error('INVALID_RECORD'), ['a:1'])).toBe('');
  });
});
