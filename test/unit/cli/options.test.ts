import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { parseBrokers, resolveRunOptions } from '../../../src/cli/options.js';

describe('resolveRunOptions', () => {
  it('takes flags over environment variables', () => {
    const o = resolveRunOptions(
      'app.ts',
      { bootstrapServers: 'a:1,b:2', applicationId: 'flag-app', commitIntervalMs: '250', logLevel: 'debug', metricsPort: '9464' },
      { KAFKA_BROKERS: 'x:9', SLUICE_APPLICATION_ID: 'env-app', LOG_LEVEL: 'warn' },
    );
    expect(o).toMatchObject({
      modulePath: 'app.ts',
      bootstrapServers: ['a:1', 'b:2'],
      applicationId: 'flag-app',
      commitIntervalMs: 250,
      logLevel: 'debug',
      metricsPort: 9464,
      embedded: false,
    });
  });

  it('reads SLUICE_BOOTSTRAP_SERVERS before KAFKA_BROKERS, and the other variables', () => {
    const o = resolveRunOptions('app.ts', {}, {
      SLUICE_BOOTSTRAP_SERVERS: 's:1',
      KAFKA_BROKERS: 'k:1',
      SLUICE_PROCESSING_GUARANTEE: 'at_least_once',
      SLUICE_COMMIT_INTERVAL_MS: '1000',
      SLUICE_METRICS_PORT: '0',
    });
    expect(o.bootstrapServers).toEqual(['s:1']);
    expect(o.processingGuarantee).toBe('at_least_once');
    expect(o.commitIntervalMs).toBe(1000);
    expect(o.metricsPort).toBe(0);
    expect(resolveRunOptions('app.ts', {}, { KAFKA_BROKERS: 'k:1' }).bootstrapServers).toEqual(['k:1']);
    expect(resolveRunOptions('app.ts', {}, {}).logLevel).toBe('info');
  });

  it('with --embedded ignores broker variables (but refuses an explicit --bootstrap-servers)', () => {
    expect(resolveRunOptions('app.ts', { embedded: true }, { KAFKA_BROKERS: 'k:1' })).toMatchObject({ embedded: true, bootstrapServers: undefined });
    expect(resolveRunOptions('app.ts', {}, { SLUICE_EMBEDDED: '1' }).embedded).toBe(true);
    expect(resolveRunOptions('app.ts', {}, { SLUICE_EMBEDDED: 'false' }).embedded).toBe(false);
    expect(() => resolveRunOptions('app.ts', { embedded: true, bootstrapServers: 'a:1' }, {})).toThrow(/--embedded and --bootstrap-servers/);
  });

  it.each([
    [{ commitIntervalMs: 'soon' }, {}, /^Config 'commitIntervalMs' must be a whole number of milliseconds .*got "soon" \(set by --commit-interval-ms\)$/],
    [{}, { SLUICE_COMMIT_INTERVAL_MS: '-5' }, /'commitIntervalMs' .*got -5 \(set by SLUICE_COMMIT_INTERVAL_MS \(or --commit-interval-ms\)\)$/],
    [{ metricsPort: '70000' }, {}, /--metrics-port must be an integer from 0 to 65535/],
    [{ logLevel: 'loud' }, {}, /--log-level must be one of/],
    [{ processingGuarantee: 'exactly_twice' }, {}, /^Config 'processingGuarantee' must be one of 'exactly_once', 'exactly_once_v2', 'at_least_once', got "exactly_twice" \(set by --processing-guarantee\)$/],
    [{}, { KAFKA_BROKERS: 'localhost' }, /KAFKA_BROKERS \(or --bootstrap-servers\) must be a comma-separated list of host:port/],
    [{ applicationId: 'my app' }, {}, /^Config 'applicationId' is required: a non-empty string of letters, digits, .*got "my app" \(set by --application-id\)$/],
  ])('rejects %o / %o with a one-line ConfigError naming what to change', (flags, env, pattern) => {
    let err: unknown;
    try {
      resolveRunOptions('app.ts', flags, env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(pattern);
    expect((err as Error).message).not.toContain('\n');
  });

  it('parses broker lists', () => {
    expect(parseBrokers(' a:1 , b:22,')).toEqual(['a:1', 'b:22']);
    expect(() => parseBrokers(',')).toThrow(ConfigError);
  });
});
