/**
 * The benchmark runner's verdicts on real Kafka (issue 18's harness): a
 * contender whose committed offsets go backwards fails with that reason, and
 * one that runs past its time bound is reported as a timeout, not as "child
 * exited early (code 0)". The contender is a fake (fixtures/bench-offsets-child.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { ContenderSpec } from '../../bench/lib/contenders.js';
import { kafkaClient } from '../../bench/lib/kafka.js';
import { awaitCleanups, REGRESSION_GRACE_MS, runPipeline } from '../../bench/lib/run-pipeline.js';
import { describeKafka, uniqueName } from '../helpers/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..', '..', 'bench');

function fake(mode: 'backwards' | 'idle'): ContenderSpec {
  return {
    id: 'sluice-eos', label: 'fake', workload: 'pipeline', completion: 'committed',
    launch: (ctx) => ({
      command: process.execPath,
      args: ['--import', 'tsx', join(here, 'fixtures', 'bench-offsets-child.ts'), mode,
        '--brokers', ctx.brokers.join(','), '--group', ctx.group, '--input', ctx.input, '--output', ctx.output],
    }),
  };
}

describeKafka('bench runner verdicts on Kafka', (brokers) => {
  it('fails a run whose committed offsets went backwards, says so, and stops it soon after', { timeout: 120_000 }, async () => {
    const kafka = kafkaClient(brokers);
    const began = Date.now();
    const result = await runPipeline(fake('backwards'), { kafka, base: { brokers, benchDir }, name: uniqueName('bench-regress'), round: 1, records: 1000, timeoutMs: 90_000, log: () => undefined });
    await awaitCleanups();
    expect(result.ok).toBe(false);
    expect(result.reason?.split('\n')[0]).toBe('committed offsets went backwards 1 time(s) on partition(s) 3 (largest: partition 3 from 100 to 40); ' +
      `stopped ${REGRESSION_GRACE_MS} ms after it, incomplete: 740 of 1000 input offsets committed`);
    // Cut 10 s after the regression, far below its 90 s bound.
    expect(Date.now() - began).toBeLessThan(60_000);
  });

  it('reports a contender that ran past its bound as a timeout', { timeout: 120_000 }, async () => {
    const kafka = kafkaClient(brokers);
    const result = await runPipeline(fake('idle'), { kafka, base: { brokers, benchDir }, name: uniqueName('bench-timeout'), round: 1, records: 1000, timeoutMs: 3000, log: () => undefined });
    await awaitCleanups();
    expect(result.ok).toBe(false);
    expect(result.reason?.split('\n')[0]).toBe('timeout after 3000 ms (stopped): 0 of 1000 input offsets committed');
    expect(result.reason).not.toContain('exited early');
  });
});
