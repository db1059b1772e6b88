import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError, IllegalStateError } from '../../../src/errors.js';
import { resolveConfig } from '../../../src/runtime/config.js';
import { uniqueGroup, uniqueTopic } from '../../helpers/index.js';
import { Closer, EmbeddedKafkaCluster, KafkaStreams, recordStates, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('KafkaStreams config validation', () => {
  const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
  const topology = upperTopology('in', 'out');
  afterAll(() => cluster.close());

  it.each([
    [{ cluster }, /applicationId/],
    [{ applicationId: '', cluster }, /applicationId/],
    [{ applicationId: 'a b', cluster }, /applicationId/],
    [{ applicationId: 'a' }, /bootstrapServers.*cluster/],
    [{ applicationId: 'a', cluster, bootstrapServers: ['x:1'] }, /bootstrapServers.*cluster/],
    [{ applicationId: 'a', cluster, processingGuarantee: 'exactly_twice' }, /processingGuarantee/],
    [{ applicationId: 'a', cluster, commitIntervalMs: 0 }, /commitIntervalMs/],
    [{ applicationId: 'a', cluster, maxPendingOutputRecordsPerTask: -1 }, /maxPendingOutputRecordsPerTask/],
    [{ applicationId: 'a', cluster, productionExceptionHandler: 'CONTINUE' }, /productionExceptionHandler/],
    [{ applicationId: 'a', cluster, uncaughtExceptionPolicy: 'REPLACE' }, /uncaughtExceptionPolicy/],
    [{ applicationId: 'a', cluster, comitIntervalMs: 5 }, /Unknown config key 'comitIntervalMs'/],
  ])('rejects %o naming the key', (config, message) => {
    const create = () => new KafkaStreams(topology, config as never);
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(message);
  });

  it('fills Kafka Streams defaults: commit interval 100 ms under EOS, 30 s under ALOS, FAIL handlers', () => {
    const eos = resolveConfig({ applicationId: 'a', cluster });
    expect(eos.processingGuarantee).toBe('exactly_once');
    expect(eos.commitIntervalMs).toBe(100);
    expect(eos.uncaughtExceptionPolicy).toBe('SHUTDOWN_CLIENT');
    expect(eos.productionExceptionHandler.handle({} as never, {} as never, new Error('x'))).toBe('FAIL');
    const alos = resolveConfig({ applicationId: 'a', bootstrapServers: '127.0.0.1:9092', processingGuarantee: 'at_least_once' });
    expect(alos.commitIntervalMs).toBe(30_000);
    expect(alos.bootstrapServers).toEqual(['127.0.0.1:9092']);
  });
});

describe('KafkaStreams lifecycle', () => {
  it('close() before start() goes CREATED -> PENDING_SHUTDOWN -> NOT_RUNNING; start() afterwards is illegal', async () => {
    const cluster = closer.cluster();
    const app = closer.app(upperTopology('in', 'out'), { applicationId: uniqueGroup('app'), cluster });
    const states = recordStates(app);
    await app.close();
    await app.close();
    expect(states).toEqual(['CREATED', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
    await expect(app.start()).rejects.toThrow(IllegalStateError);
    await expect(app.start()).rejects.toThrow(/only allowed in state CREATED; current state: NOT_RUNNING/);
  });

  it('a missing source topic fails start() with an error naming it and telling to create it; the app ends in ERROR', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('missing');
    const app = closer.app(upperTopology(input, 'out'), { applicationId: uniqueGroup('app'), cluster });
    await expect(app.start()).rejects.toThrow(new RegExp(`Source topic '${input}' does not exist; create it`));
    expect(app.state).toBe('ERROR');
    expect(app.error?.message).toContain(input);
    await app.close();
    expect(app.state).toBe('ERROR');
  });

  it('a second start() while running is illegal and names the allowed state', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    await cluster.createTopic(input, { partitions: 1 });
    const output = uniqueTopic('out');
    await cluster.createTopic(output, { partitions: 1 });
    const app = closer.app(upperTopology(input, output), { applicationId: uniqueGroup('app'), cluster });
    await app.start();
    await expect(app.start()).rejects.toThrow(/start\(\) is only allowed in state CREATED; current state: RUNNING/);
    expect(app.state).toBe('RUNNING');
  });
});
