import { afterEach, describe, expect, it } from 'vitest';
import { describeApp } from '../../../src/cli/describe-command.js';
import { spawnCli, ROOT, type CliProcess } from './spawn-cli.js';

const ORDERS = 'examples/orders/app.ts';
const running: CliProcess[] = [];
function cli(args: string[], env: Record<string, string> = {}): CliProcess {
  const p = spawnCli(args, env);
  running.push(p);
  return p;
}

afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

async function until(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sluice describe', () => {
  it('prints the topology as text, identical to describe().toString()', async () => {
    const p = cli(['describe', ORDERS]);
    expect(await p.exit).toBe(0);
    const out = p.stdout();
    expect(out).toBe(await describeApp(ORDERS, 'text', ROOT));
    expect(out).toMatch(/^Topologies:\n {3}Sub-topology: 0\n/);
    expect(out).toContain('Source: KSTREAM-SOURCE-0000000000 (topics: [orders])');
    expect(out).toContain('Processor: validate-order (stores: [])');
    expect(out).toContain('Sink: to-status (topic: order-status)');
    expect(out).toContain('Sink: to-eu (topic: orders-eu)');
  });

  it('prints Mermaid with --format mermaid', async () => {
    const p = cli(['describe', ORDERS, '--format', 'mermaid']);
    expect(await p.exit).toBe(0);
    const out = p.stdout();
    expect(out).toMatch(/^flowchart /);
    expect(out).toContain('"validate-order"');
    expect(out).toContain('"order-status"');
    expect(out).toContain('-->');
    expect(out).toBe(await describeApp(ORDERS, 'mermaid', ROOT));
  });
});

describe('sluice run', () => {
  it('without a cluster to run on exits 2 with a one-line reason naming the options', async () => {
    const p = cli(['run', ORDERS]);
    expect(await p.exit).toBe(2);
    expect(p.stderr()).toBe(
      'sluice: No Kafka to run on: pass --bootstrap-servers host:port (or set KAFKA_BROKERS), or --embedded for an in-process cluster\n',
    );
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('--embedded runs the orders example, serves metrics, and exits 0 on %s', async (signal) => {
    const p = cli(['run', ORDERS, '--embedded', '--metrics-port', '0', '--log-level', 'info'], { ORDERS_SEED_COUNT: '600' });
    await until(() => /Prometheus metrics on http:\/\/[^:]+:\d+/.test(p.stdout()), 'the metrics endpoint');
    const port = /Prometheus metrics on http:\/\/[^:]+:(\d+)/.exec(p.stdout())![1];
    let scraped = '';
    await until(async () => {
      scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      // the input sub-topology's tasks (0_*) read the 600 orders; the revenue sub-topology (1_*) reads them again, re-keyed
      const input = [...scraped.matchAll(/sluice_task_records_processed_total\{task="0_\d+"\} (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
      return input === 600;
    }, 'all 600 seeded orders processed');
    expect(scraped).toContain('sluice_app_state{state="RUNNING"} 1');
    expect(scraped).toMatch(/sluice_dropped_records_total [1-9]/);
    p.child.kill(signal);
    expect(await p.exit).toBe(0);
    expect(p.stdout()).toContain(`"msg":"${signal} received, closing"`);
    expect(p.stdout()).toContain('"msg":"closed"');
    expect(p.stderr()).toBe('');
  });

  it('exits 1 with a one-line reason when the app fails (handler answered FAIL)', async () => {
    const p = cli(['run', 'test/unit/cli/fixtures/failing-app.ts', '--embedded', '--log-level', 'silent']);
    expect(await p.exit).toBe(1);
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sluice: /);
    expect(lines[0]).toMatch(/max\.message\.bytes|too large|RecordTooLarge/i);
  });
});
