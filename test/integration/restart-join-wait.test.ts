/**
 * Issue 29 item 9 on real Kafka: a worker SIGKILLed and restarted waits in its group join until the
 * dead member's session expires (here 20 s); the restarted worker says so once, with the time left.
 */
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { describeKafka, uniqueGroup, uniqueName, waitFor } from '../helpers/index.js';
import { spawnCli, type CliProcess } from '../unit/cli/spawn-cli.js';

const running: CliProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

describeKafka('restart after a crash on Kafka', (brokers) => {
  it('the restarted worker logs once that its join waits for the previous member, with the remaining time', { timeout: 120_000 }, async () => {
    const applicationId = uniqueGroup('restart-app');
    const env = { RESTART_IN: uniqueName('restart-in'), RESTART_OUT: uniqueName('restart-out') };
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    try {
      await admin.createTopic(env.RESTART_IN, { partitions: 1 });
      await admin.createTopic(env.RESTART_OUT, { partitions: 1 });
    } finally {
      await admin.close();
    }
    const start = (): CliProcess => {
      const p = spawnCli(['run', 'test/integration/fixtures/restart-app.ts', '-b', brokers.join(','), '-a', applicationId, '--no-progress'], env);
      running.push(p);
      return p;
    };
    const first = start();
    await waitFor(() => first.stdout().includes('"msg":"app running"'), { timeoutMs: 60_000, message: 'run 1 running' });
    expect(first.stdout()).not.toContain('is held by the group coordinator');
    first.child.kill('SIGKILL');
    await first.exit;

    const second = start();
    const restartedAt = Date.now();
    await waitFor(() => second.stdout().includes('"msg":"app running"'), { timeoutMs: 60_000, message: 'run 2 running' });
    const waitedMs = Date.now() - restartedAt;
    const held = second.stdout().split('\n').filter((l) => l.includes('is held by the group coordinator'));
    expect(held, second.stdout()).toHaveLength(1);
    const line = JSON.parse(held[0]!) as { level: number; msg: string; groupId: string; remainingMs: number };
    expect(line.level).toBe(30);
    expect(line.groupId).toBe(applicationId);
    expect(line.msg).toContain(`joining group '${applicationId}' is held by the group coordinator (5 s so far)`);
    expect(line.msg).toContain("at most ~15 s more for a previous member's session (sessionTimeoutMs 20000)");
    expect(line.remainingMs).toBe(15_000);
    expect(waitedMs).toBeGreaterThan(5_000); // the wait was real
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  });
});
