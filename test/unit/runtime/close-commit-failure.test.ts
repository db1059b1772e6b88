/**
 * Issue 12 item 5, "exit codes tell the truth": a final commit that fails during
 * close() (not a fencing) is a task failure the app keeps in `app.error`, so a
 * worker stopped by a signal exits non-zero; a clean close leaves no error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KafkaErrorCode } from '../../../src/index.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, produceN, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(() => closer.closeAll());

async function runningApp() {
  const cluster = closer.cluster();
  const input = uniqueTopic('in');
  const output = uniqueTopic('out');
  await cluster.createTopic(input, { partitions: 1 });
  await cluster.createTopic(output, { partitions: 1 });
  const applicationId = uniqueGroup('app');
  // a long commit interval: the records processed below are committed only by close()
  const app = closer.app(upperTopology(input, output), { applicationId, cluster, commitIntervalMs: 60_000, transactionTimeoutMs: 120_000 });
  await app.start();
  await produceN(cluster, input, 5);
  await waitFor(() => app.metrics().recordsProcessed === 5);
  return { app, cluster, applicationId, output };
}

describe('close() with a failing final commit', () => {
  it('keeps the commit failure in app.error (the CLI then exits 1); nothing of the transaction is visible', async () => {
    const { app, cluster, applicationId, output } = await runningApp();
    cluster.failTxnRequest({ transactionalId: `${applicationId}-0_0`, api: 'EndTxn', code: KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED });
    await app.close();
    expect(app.state).toBe('NOT_RUNNING');
    expect(app.error?.message).toMatch(/TRANSACTIONAL_ID_AUTHORIZATION_FAILED|authoriz/i);
    expect(await cluster.readCommitted(output)).toEqual([]);
  });

  it('a clean close commits and leaves no error', async () => {
    const { app, cluster, output } = await runningApp();
    await app.close();
    expect(app.error).toBeUndefined();
    expect(await cluster.readCommitted(output)).toHaveLength(5);
  });
});
