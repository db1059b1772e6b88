import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/runtime/config.js';
import { ConfigError } from '../../../src/errors.js';

const base = { applicationId: 'ha-config', bootstrapServers: 'localhost:9092' };

describe('high-availability config keys', () => {
  it('defaults as Kafka Streams: no standby, 2 warm-ups, 10-minute probing, dynamic membership', () => {
    const c = resolveConfig(base);
    expect([c.numStandbyReplicas, c.maxWarmupReplicas, c.probingRebalanceIntervalMs, c.groupInstanceId]).toEqual([0, 2, 600_000, undefined]);
  });

  it('takes the values given', () => {
    const c = resolveConfig({ ...base, numStandbyReplicas: 1, maxWarmupReplicas: 3, probingRebalanceIntervalMs: 5_000, groupInstanceId: 'worker-1' });
    expect([c.numStandbyReplicas, c.maxWarmupReplicas, c.probingRebalanceIntervalMs, c.groupInstanceId]).toEqual([1, 3, 5_000, 'worker-1']);
  });

  it.each([
    [{ numStandbyReplicas: -1 }, /'numStandbyReplicas' must be a whole number >= 0/],
    [{ numStandbyReplicas: 1.5 }, /'numStandbyReplicas'/],
    [{ maxWarmupReplicas: 0 }, /'maxWarmupReplicas' must be a whole number >= 1/],
    [{ probingRebalanceIntervalMs: 0 }, /'probingRebalanceIntervalMs' must be a whole number of milliseconds from 1 to 2147483647/],
    [{ groupInstanceId: '' }, /'groupInstanceId' must be 1 to 249 letters/],
    [{ groupInstanceId: 'a b' }, /'groupInstanceId'.*"a b"/],
  ])('rejects %o naming the key', (extra, message) => {
    expect(() => resolveConfig({ ...base, ...extra } as never)).toThrow(ConfigError);
    expect(() => resolveConfig({ ...base, ...extra } as never)).toThrow(message);
  });
});
