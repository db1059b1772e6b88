/**
 * Issue 12: config combinations and values that used to be accepted and then
 * stalled or failed late (item 4, bootstrap addresses, NaN/Infinity).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { brokerAddressProblem } from '../../../src/runtime/bootstrap-servers.js';
import { EmbeddedKafkaCluster, KafkaStreams, upperTopology } from './fixtures.js';

const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
afterAll(() => cluster.close());
const topology = upperTopology('in', 'out');

function refusal(config: Record<string, unknown>): ConfigError {
  try {
    new KafkaStreams(topology, config as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`config ${JSON.stringify(config)} was accepted`);
}

describe('commitIntervalMs against transactionTimeoutMs (issue 12 item 4)', () => {
  it.each([
    [{ commitIntervalMs: 70_000 }, '70000', '60000'],
    [{ commitIntervalMs: 5_000, transactionTimeoutMs: 5_000 }, '5000', '5000'],
    [{ commitIntervalMs: 9_000, transactionTimeoutMs: 1_000 }, '9000', '1000'],
  ])('refuses %o at construction, naming both keys and values', (extra, commit, txn) => {
    const error = refusal({ applicationId: 'a', cluster, ...extra });
    expect(error.message).toContain(`'commitIntervalMs' (${commit})`);
    expect(error.message).toContain(`'transactionTimeoutMs' (${txn})`);
    expect(error.message).toMatch(/Lower commitIntervalMs or raise transactionTimeoutMs/);
  });

  it('accepts a commit interval below the transaction timeout, and any interval under at_least_once (no transactions)', () => {
    expect(resolveConfig({ applicationId: 'a', cluster, commitIntervalMs: 59_999 }).commitIntervalMs).toBe(59_999);
    const alos = resolveConfig({ applicationId: 'a', cluster, processingGuarantee: 'at_least_once', commitIntervalMs: 70_000 });
    expect(alos.commitIntervalMs).toBe(70_000);
  });
});

describe('deliveryTimeoutMs (issue 12 item 5)', () => {
  it('is a config key with the producer default, validated like the other durations', () => {
    expect(resolveConfig({ applicationId: 'a', cluster }).deliveryTimeoutMs).toBe(120_000);
    expect(resolveConfig({ applicationId: 'a', cluster, deliveryTimeoutMs: 5_000 }).deliveryTimeoutMs).toBe(5_000);
    expect(refusal({ applicationId: 'a', cluster, deliveryTimeoutMs: 0 }).message).toMatch(/'deliveryTimeoutMs' must be a whole number of milliseconds from 1 to 2147483647, got 0/);
  });
});

describe('bootstrapServers addresses are checked in the constructor, as the CLI checks them', () => {
  it.each([
    ['localhost', /'localhost' has no port \(write it as host:port, e\.g\. localhost:9092\)/],
    [['127.0.0.1:9092', 'kafka'], /'kafka' has no port/],
    ['localhost:abc', /'localhost:abc' is not host:port/],
    ['localhost:0', /port 0, outside 1\.\.65535/],
    ['localhost:70000', /port 70000, outside 1\.\.65535/],
    [' , ', /no broker is named/],
    [[42], /got \[ 42 \]/],
  ])('refuses %o at once with a ConfigError naming the entry', (bootstrapServers, message) => {
    const error = refusal({ applicationId: 'a', bootstrapServers });
    expect(error.message).toMatch(/^Config 'bootstrapServers' must be a non-empty list of 'host:port' strings: /);
    expect(error.message).toMatch(message);
  });

  it('accepts host:port lists, trimmed', () => {
    expect(resolveConfig({ applicationId: 'a', bootstrapServers: ' a:1 , b.example:65535' }).bootstrapServers).toEqual(['a:1', 'b.example:65535']);
    expect(brokerAddressProblem('[::1]')).toBeDefined();
    expect(brokerAddressProblem('kafka-0.kafka:9092')).toBeUndefined();
  });
});

describe('numbers that JSON cannot show', () => {
  it.each([
    [{ commitIntervalMs: Number.NaN }, /'commitIntervalMs' must be a whole number of milliseconds from 1 to 2147483647, got NaN/],
    [{ transactionTimeoutMs: Number.POSITIVE_INFINITY }, /'transactionTimeoutMs' must be a whole number of milliseconds from 1 to 2147483647, got Infinity/],
    [{ taskRestartBackoffMs: -Infinity }, /got -Infinity/],
    [{ sessionTimeoutMs: '30000' }, /got "30000"/],
    [{ processingGuarantee: Number.NaN }, /'processingGuarantee' must be one of .*, got NaN/],
  ])('reports %o with the value as written, not "null"', (extra, message) => {
    const error = refusal({ applicationId: 'a', cluster, ...extra });
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/got null/);
  });
});
