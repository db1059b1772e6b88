import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ConfigError } from '../../../src/errors.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { appLogger } from '../../../src/runtime/config-conveniences.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, EmbeddedKafkaCluster, kv, produceN, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('Kafka Streams convenience config keys', () => {
  const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
  afterAll(() => cluster.close());

  it("processingGuarantee 'exactly_once_v2' is an alias of 'exactly_once'", () => {
    const config = resolveConfig({ applicationId: 'a', cluster, processingGuarantee: 'exactly_once_v2' });
    expect(config.processingGuarantee).toBe('exactly_once');
    expect(config.commitIntervalMs).toBe(100);
  });

  it('numStreamThreads: a whole number from 1 to 64 (default 1); anything else is a ConfigError naming the key and the range', () => {
    expect(resolveConfig({ applicationId: 'a', cluster }).numStreamThreads).toBe(1);
    for (const n of [1, 2, 64]) expect(resolveConfig({ applicationId: 'a', cluster, numStreamThreads: n }).numStreamThreads).toBe(n);
    for (const n of [0, -1, 1.5, 65, Number.NaN, '2']) {
      const create = () => resolveConfig({ applicationId: 'a', cluster, numStreamThreads: n as number });
      expect(create).toThrow(ConfigError);
      expect(create).toThrow(/'numStreamThreads' must be a whole number from 1 to 64, got .*Kafka's num.stream.threads/);
    }
  });

  it('streamThreadModule: a file URL or an absolute path, kept as a file URL; anything else is a ConfigError naming the key', () => {
    expect(resolveConfig({ applicationId: 'a', cluster }).streamThreadModule).toBeUndefined();
    expect(resolveConfig({ applicationId: 'a', cluster, streamThreadModule: new URL('file:///srv/app.js') }).streamThreadModule).toBe('file:///srv/app.js');
    expect(resolveConfig({ applicationId: 'a', cluster, streamThreadModule: '/srv/app.js' }).streamThreadModule).toBe('file:///srv/app.js');
    expect(resolveConfig({ applicationId: 'a', cluster, streamThreadModule: 'file:///srv/app.js' }).streamThreadModule).toBe('file:///srv/app.js');
    for (const bad of ['./app.js', '', new URL('https://example.com/app.js'), 42]) {
      expect(() => resolveConfig({ applicationId: 'a', cluster, streamThreadModule: bad as string })).toThrow(/'streamThreadModule' must be a file URL .* or an absolute path/);
    }
  });

  it("autoOffsetReset defaults to 'earliest', accepts 'latest', rejects anything else naming the key", () => {
    expect(resolveConfig({ applicationId: 'a', cluster }).autoOffsetReset).toBe('earliest');
    expect(resolveConfig({ applicationId: 'a', cluster, autoOffsetReset: 'latest' }).autoOffsetReset).toBe('latest');
    expect(() => resolveConfig({ applicationId: 'a', cluster, autoOffsetReset: 'none' as never })).toThrow(/'autoOffsetReset' must be one of 'earliest', 'latest'/);
  });

  it('logLevel sets the level of the default logger and of a child of a given logger; a bad level names the key', () => {
    expect(resolveConfig({ applicationId: 'a', cluster, logLevel: 'error' }).logger.level).toBe('error');
    const given = pino({ level: 'info' });
    expect(resolveConfig({ applicationId: 'a', cluster, logger: given }).logger).toBe(given);
    expect(resolveConfig({ applicationId: 'a', cluster, logger: given, logLevel: 'debug' }).logger.level).toBe('debug');
    expect(() => resolveConfig({ applicationId: 'a', cluster, logLevel: 'loud' as never })).toThrow(/'logLevel' must be one of 'silent', 'fatal'/);
  });

  it('the default logger is warn outside tests (never INFO on stdout from a library), LOG_LEVEL wins', () => {
    const saved = { vitest: process.env.VITEST, level: process.env.LOG_LEVEL };
    try {
      delete process.env.VITEST;
      delete process.env.LOG_LEVEL;
      expect(appLogger(undefined, undefined).level).toBe('warn');
      process.env.LOG_LEVEL = 'debug';
      expect(appLogger(undefined, undefined).level).toBe('debug');
      expect(appLogger(undefined, 'error').level).toBe('error');
    } finally {
      process.env.VITEST = saved.vitest;
      if (saved.level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = saved.level;
    }
    expect(appLogger(undefined, undefined).level).toBe(process.env.LOG_LEVEL ?? 'silent');
  });
});

describe('autoOffsetReset on the embedded cluster', () => {
  async function run(reset: 'earliest' | 'latest', expected: number): Promise<string[]> {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 2 });
    await cluster.createTopic(output, { partitions: 1 });
    await produceN(cluster, input, 4);
    const app = closer.app(upperTopology(input, output), { applicationId: uniqueGroup('reset'), cluster, autoOffsetReset: reset });
    await app.start();
    await produceN(cluster, input, 2, 10);
    const out = await waitFor(async () => {
      const records = kv(await cluster.readCommitted(output));
      return records.length >= expected && records.filter((r) => /^k1\d=/.test(r)).length === 2 ? records : undefined;
    });
    // Anything the app would (wrongly) still write lands within this pause.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kv(await cluster.readCommitted(output)).length).toBe(out.length);
    return out.sort();
  }

  it("'earliest' (default) reads what was written before the start", async () => {
    expect(await run('earliest', 6)).toEqual(['k0=V0', 'k1=V1', 'k10=V10', 'k11=V11', 'k2=V2', 'k3=V3'].sort());
  });

  it("'latest' starts a partition with no committed offset at its end: only records written after the start", async () => {
    expect(await run('latest', 2)).toEqual(['k10=V10', 'k11=V11']);
  });
});
