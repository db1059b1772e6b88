/**
 * Issue 12 item 5: `deliveryTimeoutMs` is an app config key handed to every
 * task producer, so a record for a topic that does not exist (a dynamic
 * topic) fails after that time, not after the producer's 120 s default.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import type { ProductionExceptionHandler } from '../../../src/handlers/types.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('deliveryTimeoutMs', () => {
  it('reaches the task producers: a record for a missing dynamic topic fails after it', { timeout: 30_000 }, async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const missing = uniqueTopic('nowhere');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.produce(input, [{ key: 'k', value: 'v', partition: 0 }]);
    const errors: Error[] = [];
    const handler: ProductionExceptionHandler = { handle: (_c, _r, error) => (errors.push(error), 'CONTINUE') };
    const builder = new StreamsBuilder();
    builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() }).to(() => missing, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const applicationId = uniqueGroup('app');
    const app = closer.app(builder.build(), { applicationId, cluster, deliveryTimeoutMs: 1_000, productionExceptionHandler: handler });
    const started = Date.now();
    await app.start();
    await waitFor(() => errors.length > 0, { timeoutMs: 15_000, message: 'the production handler was asked' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(errors[0]!.message).toContain(missing);
    await waitFor(async () => (await cluster.committedOffsets(applicationId, input))[0] === 1, { timeoutMs: 10_000, message: 'the input committed' });
  });
});
