/** `app.state$` completes once the app reached its last state (NOT_RUNNING after close, ERROR after an error shutdown). */
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueGroup, uniqueTopic } from '../../helpers/index.js';
import { Closer, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('KafkaStreams.state$ completion', () => {
  it('completes after close() reaches NOT_RUNNING, for early and late subscribers', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    const app = closer.app(upperTopology(input, output), { applicationId: uniqueGroup('app'), cluster });
    const states = lastValueFrom(app.state$.pipe(toArray()));
    await app.start();
    await app.close();
    expect(await states).toEqual(['CREATED', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING']);
    expect(await lastValueFrom(app.state$.pipe(toArray()))).toEqual(['NOT_RUNNING']);
  });

  it('completes after the error shutdown reaches ERROR; close() afterwards keeps ERROR', async () => {
    const cluster = closer.cluster();
    const app = closer.app(upperTopology(uniqueTopic('missing'), 'out'), { applicationId: uniqueGroup('app'), cluster });
    const states = lastValueFrom(app.state$.pipe(toArray()));
    await expect(app.start()).rejects.toThrow(/does not exist/);
    await app.close();
    expect(await states).toEqual(['CREATED', 'REBALANCING', 'PENDING_ERROR', 'ERROR']);
    expect(app.state).toBe('ERROR');
  });
});
