/**
 * `sluice reset` (issue 29 item 10) on the embedded cluster, the flow of Kafka's
 * ResetIntegrationTest: run an app, stop it, reset, run again, and the input is reprocessed
 * with the same results; a dry run changes nothing; a group with an active member is refused.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KafkaStreams, Serdes, StreamsBuilder } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';
import { resetApplication, type ResetOptions } from '../../../src/cli/reset-command.js';
import { resetTargetOf } from '../../../src/cli/reset-cli.js';

const S = Serdes.String();
const APP = 'reset-app';
const clusters: EmbeddedKafkaCluster[] = [];
afterEach(async () => {
  for (const c of clusters.splice(0)) await c.close();
});

/** Counts the input values per value (a groupBy: a repartition topic and a changelog). */
function countApp(cluster: EmbeddedKafkaCluster, stateDir: string): KafkaStreams {
  const builder = new StreamsBuilder();
  builder
    .stream('words', { keySerde: S, valueSerde: S })
    .groupBy((_k, v) => v, { keySerde: S, valueSerde: S })
    .count()
    .toStream()
    .mapValues((n) => String(n))
    .to('counts', { keySerde: S, valueSerde: S });
  return new KafkaStreams(builder.build(), { applicationId: APP, cluster, stateDir, statestoreCacheMaxBytes: 0, commitIntervalMs: 50 });
}

async function until(predicate: () => Promise<boolean>, what: string, debug?: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${debug ? `: ${await debug()}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function counts(cluster: EmbeddedKafkaCluster): Promise<string[]> {
  return (await cluster.readCommitted('counts')).map((r) => `${r.key?.toString()}=${r.value?.toString()}`);
}

async function runOnce(cluster: EmbeddedKafkaCluster, stateDir: string, expectedOutputs: number): Promise<void> {
  const app = countApp(cluster, stateDir);
  await app.start();
  await until(
    async () => (await counts(cluster)).length >= expectedOutputs && (await cluster.committedOffsets(APP, 'words'))[0] === 4,
    'the input processed and committed',
    async () => JSON.stringify({ counts: await counts(cluster), committed: await cluster.committedOffsets(APP, 'words'), state: app.state }),
  );
  await app.close();
}

async function setup() {
  const cluster = new EmbeddedKafkaCluster();
  clusters.push(cluster);
  await cluster.createTopic('words', { partitions: 1 });
  await cluster.createTopic('counts', { partitions: 1 });
  await cluster.produce('words', ['a', 'b', 'a', 'c'].map((value, i) => ({ key: `k${i}`, value })));
  const stateDir = mkdtempSync(join(tmpdir(), 'sluice-reset-'));
  return { cluster, stateDir };
}

const options = (stateDir: string, extra: Partial<ResetOptions> = {}): ResetOptions => ({
  applicationId: APP,
  inputTopics: ['words'],
  target: { kind: 'earliest' },
  dryRun: false,
  stateDir,
  ...extra,
});

describe('sluice reset (embedded cluster)', () => {
  it('after a reset to earliest the app reprocesses its input with the same results; internal topics and local state are gone', async () => {
    const { cluster, stateDir } = await setup();
    await runOnce(cluster, stateDir, 4);
    const first = await counts(cluster);
    expect(first).toEqual(['a=1', 'b=1', 'a=2', 'c=1']);
    const internal = (await cluster.listTopics()).filter((t) => t.startsWith(`${APP}-`)).sort();
    expect(internal.some((t) => t.endsWith('-repartition'))).toBe(true);
    expect(internal.some((t) => t.endsWith('-changelog'))).toBe(true);
    expect(readdirSync(join(stateDir, APP)).length).toBeGreaterThan(0);

    const lines: string[] = [];
    await resetApplication(options(stateDir), cluster.admin(), (l) => lines.push(l));
    expect(lines).toEqual([
      `Following input topics offsets will be reset to (for consumer group ${APP})`,
      'Topic: words Partition: 0 Offset: 0',
      `Deleting inferred internal topics [${internal.join(', ')}]`,
      `Removing local state directory ${join(stateDir, APP)}`,
      'Done.',
    ]);
    expect(await cluster.committedOffsets(APP, 'words')).toEqual([0]);
    expect((await cluster.listTopics()).filter((t) => t.startsWith(`${APP}-`))).toEqual([]);
    expect(existsSync(join(stateDir, APP))).toBe(false);

    await runOnce(cluster, stateDir, 8);
    expect((await counts(cluster)).slice(4)).toEqual(first); // reprocessed from scratch: the same counts again, not a=3, a=4
  });

  it('a dry run prints the plan and changes nothing', async () => {
    const { cluster, stateDir } = await setup();
    await runOnce(cluster, stateDir, 4);
    const topics = (await cluster.listTopics()).sort();
    const lines: string[] = [];
    await resetApplication(options(stateDir, { dryRun: true }), cluster.admin(), (l) => lines.push(l));
    expect(lines[0]).toBe('----Dry run displays the actions which will be performed when running Streams Reset Tool----');
    expect(lines).toContain('Topic: words Partition: 0 Offset: 0');
    expect(await cluster.committedOffsets(APP, 'words')).toEqual([4]);
    expect((await cluster.listTopics()).sort()).toEqual(topics);
    expect(readdirSync(join(stateDir, APP)).length).toBeGreaterThan(0);
  });

  it('refuses while the group has an active member, naming it, and changes nothing', async () => {
    const { cluster, stateDir } = await setup();
    const app = countApp(cluster, stateDir);
    await app.start();
    try {
      await until(async () => (await cluster.committedOffsets(APP, 'words'))[0] === 4, 'the input committed');
      const topics = (await cluster.listTopics()).sort();
      await expect(resetApplication(options(stateDir), cluster.admin(), () => undefined)).rejects.toMatchObject({
        code: 'GROUP_ACTIVE',
        message: expect.stringMatching(new RegExp(`^Consumer group '${APP}' is still active and has following members: \\[.+\\]\\. Make sure to stop all running application instances before running the reset tool`)),
      });
      expect(await cluster.committedOffsets(APP, 'words')).toEqual([4]);
      expect((await cluster.listTopics()).sort()).toEqual(topics);
    } finally {
      await app.close();
    }
  });

  it('skips a missing input topic with a line; --to-latest, --to-offset', async () => {
    const { cluster, stateDir } = await setup();
    const lines: string[] = [];
    await resetApplication(options(stateDir, { inputTopics: ['nope', 'words'], target: { kind: 'latest' } }), cluster.admin(), (l) => lines.push(l));
    expect(lines.slice(0, 4)).toEqual(['Following input topics are not found, skipping them', 'Topic: nope', `Following input topics offsets will be reset to (for consumer group ${APP})`, 'Topic: words Partition: 0 Offset: 4']);
    expect(await cluster.committedOffsets(APP, 'words')).toEqual([4]);
    await resetApplication(options(stateDir, { target: { kind: 'offset', offset: 9 } }), cluster.admin(), (l) => lines.push(l));
    expect(lines).toContain('New offset (9) is higher than latest offset. Value will be set to 4');
  });

  it('--to-datetime: the first record at or after it; none that late: the end, with Kafka\'s line', async () => {
    const { cluster, stateDir } = await setup();
    await cluster.createTopic('timed', { partitions: 1 });
    await cluster.produce('timed', [1000, 2000, 3000].map((timestamp) => ({ value: 'v', timestamp })));
    const lines: string[] = [];
    await resetApplication(options(stateDir, { inputTopics: ['timed'], target: { kind: 'datetime', timestamp: 1500 } }), cluster.admin(), (l) => lines.push(l));
    expect(lines).toContain('Topic: timed Partition: 0 Offset: 1');
    expect(await cluster.committedOffsets(APP, 'timed')).toEqual([1]);
    await resetApplication(options(stateDir, { inputTopics: ['timed'], target: { kind: 'datetime', timestamp: 5000 } }), cluster.admin(), (l) => lines.push(l));
    expect(lines).toContain('Partition 0 from topic timed is empty, without a committed record. Falling back to latest known offset.');
    expect(await cluster.committedOffsets(APP, 'timed')).toEqual([3]);
  });
});

describe('resetTargetOf (the reset flags)', () => {
  it('defaults to earliest; one position flag at most; parses each', () => {
    expect(resetTargetOf({}, '/', 0)).toEqual({ kind: 'earliest' });
    expect(resetTargetOf({ toOffset: '7' }, '/', 0)).toEqual({ kind: 'offset', offset: 7 });
    expect(resetTargetOf({ shiftBy: '-2' }, '/', 0)).toEqual({ kind: 'shift', by: -2 });
    expect(resetTargetOf({ byDuration: 'PT1M' }, '/', 100_000)).toEqual({ kind: 'datetime', timestamp: 40_000 });
    expect(() => resetTargetOf({ toEarliest: true, toOffset: '3' }, '/', 0)).toThrow(
      '--to-earliest and --to-offset exclude each other: pass one of --to-earliest, --to-latest, --to-offset, --shift-by, --to-datetime, --by-duration, --from-file',
    );
    expect(() => resetTargetOf({ toOffset: 'x' }, '/', 0)).toThrow("--to-offset must be an integer, got 'x'");
  });
});

describe('sluice reset command line', () => {
  const run = async (args: string[]) => {
    let out = '';
    let err = '';
    const stream = (write: (s: string) => void) => ({ write: (s: string) => (write(s), true) }) as unknown as NodeJS.WritableStream;
    const { runCli } = await import('../../../src/cli/program.js');
    const code = await runCli(args, { stdout: stream((s) => (out += s)), stderr: stream((s) => (err += s)), env: {}, cwd: '/' });
    return { code, out, err };
  };

  it('has help naming the position options and the dry run', async () => {
    const help = await run(['reset', '--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--application-id <id>', '--input-topics <topics>', '--to-earliest', '--to-datetime <iso>', '--by-duration <PnDTnHnMnS>', '--dry-run', '--state-dir <dir>', '--config <file>']) {
      expect(help.out).toContain(flag);
    }
  });

  it('without an application id or brokers, or with two positions: exit 2 and one line naming what to pass', async () => {
    expect(await run(['reset', '-b', '127.0.0.1:9092'])).toMatchObject({ code: 2, err: expect.stringMatching(/^sluice: .*No application id: pass --application-id <id>/) });
    expect(await run(['reset', '-a', 'x'])).toMatchObject({ code: 2, err: expect.stringMatching(/^sluice: .*No Kafka to reset on: pass --bootstrap-servers host:port/) });
    expect(await run(['reset', '-a', 'x', '-b', '127.0.0.1:9092', '--to-latest', '--to-offset', '3'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--to-latest and --to-offset exclude each other/),
    });
  });
});
