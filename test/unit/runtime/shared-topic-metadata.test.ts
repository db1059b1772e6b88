import { afterEach, describe, expect, it, vi } from 'vitest';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { spyOnAdmins } from '../../helpers/admin-spy.js';
import { Closer, produceN, upperTopology } from './fixtures.js';

const closer = new Closer();
afterEach(async () => {
  await closer.closeAll();
  vi.restoreAllMocks();
});

describe('one topic-metadata cache per app (issue 13)', () => {
  it('one admin client, the app’s, serves the partition counts and every task producer; closed once, by the app', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 3 });
    await cluster.createTopic(output, { partitions: 3 });
    const { admins, describes, closes: closeCount } = spyOnAdmins(cluster);
    await produceN(cluster, input, 30);
    const app = closer.app(upperTopology(input, output), { applicationId: uniqueGroup('app'), cluster });
    await app.start();
    await waitFor(async () => (await cluster.readCommitted(output)).length >= 30);
    expect(Object.keys(app.metrics().tasks).sort()).toEqual(['0_0', '0_1', '0_2']); // three task producers
    await app.close();
    expect(admins).toHaveLength(1);
    expect(describes.filter((t) => t === output)).toHaveLength(1); // described once for the app, not once per producer
    expect(closeCount()).toBe(1);
  });
});
