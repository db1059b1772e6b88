/**
 * `sluice run` checks the flags that set config keys with the runtime's own rule
 * (src/runtime/config-values.ts): for the same value, the CLI and `resolveConfig`
 * (what `new KafkaStreams` runs) both accept it or both refuse it with the same
 * text, the CLI adding only the flag or variable that set it.
 */
import { describe, expect, it } from 'vitest';
import { resolveRunOptions, type RunFlags } from '../../../src/cli/options.js';
import { ConfigError } from '../../../src/errors.js';
import { resolveConfig, type KafkaStreamsConfig } from '../../../src/runtime/config.js';

const base = { applicationId: 'agree', bootstrapServers: '127.0.0.1:9092' };

/** The ConfigError text a call throws, or 'ok'. */
function outcome(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

const CASES: Array<[keyof RunFlags & keyof KafkaStreamsConfig, string, unknown]> = [
  // [key, flag text, the value the config gets]
  ['processingGuarantee', 'exactly_once', 'exactly_once'],
  ['processingGuarantee', 'exactly_once_v2', 'exactly_once_v2'],
  ['processingGuarantee', 'at_least_once', 'at_least_once'],
  ['processingGuarantee', 'exactly_twice', 'exactly_twice'],
  ['processingGuarantee', 'EXACTLY_ONCE', 'EXACTLY_ONCE'],
  ['commitIntervalMs', '250', 250],
  ['commitIntervalMs', '0', 0],
  ['commitIntervalMs', '-5', -5],
  ['commitIntervalMs', '2147483648', 2147483648],
  ['commitIntervalMs', 'soon', 'soon'],
  ['applicationId', 'orders-app.v2', 'orders-app.v2'],
  ['applicationId', 'my app', 'my app'],
  ['groupInstanceId', 'worker-1', 'worker-1'],
  ['groupInstanceId', 'a/b', 'a/b'],
];

describe('CLI flags and the runtime config agree on every value', () => {
  it.each(CASES)('%s = %s', (key, text, value) => {
    const runtime = outcome(() => resolveConfig({ ...base, [key]: value } as KafkaStreamsConfig));
    const cli = outcome(() => resolveRunOptions('app.ts', { [key]: text }, {}));
    if (runtime === 'ok') expect(cli).toBe('ok');
    else expect(cli).toBe(`${runtime} (set by --${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)})`);
  });

  it('exactly_once_v2 reaches the app as given and is resolved as exactly_once by both', () => {
    const options = resolveRunOptions('app.ts', { processingGuarantee: 'exactly_once_v2' }, {});
    expect(options.processingGuarantee).toBe('exactly_once_v2');
    const config = resolveConfig({ ...base, processingGuarantee: options.processingGuarantee });
    expect(config.guarantee.guarantee).toBe('exactly_once');
    expect(config.guarantee.transactionalIdOf('0_0')).toBe('agree-0_0');
  });

  it('the environment variable is checked by the same rule and named', () => {
    const runtime = outcome(() => resolveConfig({ ...base, processingGuarantee: 'exactly_twice' as never }));
    expect(outcome(() => resolveRunOptions('app.ts', {}, { SLUICE_PROCESSING_GUARANTEE: 'exactly_twice' }))).toBe(
      `${runtime} (set by SLUICE_PROCESSING_GUARANTEE (or --processing-guarantee))`,
    );
  });
});
