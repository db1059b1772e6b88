/**
 * Issue 12 (minor): the built-in handlers log through the app's `logger` when
 * they were given none; the default handlers are the logging built-ins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deadLetterQueueHandler } from '../../../src/handlers/dead-letter-queue.js';
import { logAndContinueHandler } from '../../../src/handlers/log-and-continue.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { captureLogger } from '../handlers/capture-logger.js';
import { context, output } from '../handlers/fixtures.js';
import { Closer, EmbeddedKafkaCluster, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

function handlerLines(lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return lines.filter((l) => l.component === 'exception-handler');
}

describe('built-in handlers and the app logger', () => {
  it('a handler given no logger logs through the app logger (child with component and handler name)', () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    const { logger, lines } = captureLogger();
    const handler = logAndContinueHandler();
    closer.app(upperTopology('in', 'out'), { applicationId: 'a', cluster, logger, productionExceptionHandler: handler });
    expect(handler.handle(context, output, new Error('too big'))).toBe('CONTINUE');
    const logged = handlerLines(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, handler: 'logAndContinueHandler', topic: 'orders-in', offset: 41 });
    void cluster.close();
  });

  it("a handler's own logger wins, and the first app's logger stays (a handler shared by two apps)", () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    const own = captureLogger();
    const app1 = captureLogger();
    const app2 = captureLogger();
    const mine = logAndContinueHandler({ logger: own.logger });
    const shared = deadLetterQueueHandler({ topic: 'dlq' });
    closer.app(upperTopology('in', 'out'), { applicationId: 'a', cluster, logger: app1.logger, productionExceptionHandler: mine, deserializationExceptionHandler: shared });
    closer.app(upperTopology('in', 'out'), { applicationId: 'b', cluster, logger: app2.logger, deserializationExceptionHandler: shared });
    mine.handle(context, output, new Error('x'));
    shared.handle(context, output, new Error('y'));
    expect(handlerLines(own.lines)).toHaveLength(1);
    expect(handlerLines(app1.lines).map((l) => l.handler)).toEqual(['deadLetterQueueHandler']);
    expect(handlerLines(app2.lines)).toEqual([]);
    void cluster.close();
  });

  it('the default FAIL handler logs one ERROR naming the record and the config key through the app logger', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const out = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(out, { partitions: 1, config: { 'max.message.bytes': '300' } });
    await cluster.produce(input, [{ key: 'k', value: 'x'.repeat(600), partition: 0 }]);
    const { logger, lines } = captureLogger();
    const app = closer.app(upperTopology(input, out), { applicationId: uniqueGroup('app'), cluster, logger });
    await app.start();
    await waitFor(() => app.state === 'ERROR');
    const logged = handlerLines(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, handler: 'FailProductionExceptionHandler', topic: input, offset: 0 });
    expect(logged[0]!.msg).toMatch(/set productionExceptionHandler to logAndContinueHandler\(\) or deadLetterQueueHandler/);
  });
});
