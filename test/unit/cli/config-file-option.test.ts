/**
 * `sluice run app.ts --config app.properties` on the embedded cluster, in
 * process: the file's serdes, state.dir, application.id reach the app; flags
 * and environment override the file; `--state-dir`; the startup line prints
 * secrets as [hidden]; a bad file is one stderr line (exit 2) without the secret.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { resolveRunOptions } from '../../../src/cli/options.js';
import { runCli } from '../../../src/cli/program.js';
import { runWorker } from '../../../src/cli/worker.js';
import type { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import { seen } from './fixtures/props-app.js';
import { ROOT } from './spawn-cli.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => text };
}

const SECRET = 'sr-S3CR3T-never-printed';

describe('--config / --state-dir options', () => {
  it('reads --config and --state-dir over SLUICE_CONFIG / SLUICE_STATE_DIR', () => {
    expect(resolveRunOptions('app.ts', {}, {})).toMatchObject({ configFile: undefined, stateDir: undefined });
    expect(resolveRunOptions('app.ts', {}, { SLUICE_CONFIG: 'a.properties', SLUICE_STATE_DIR: '/s' })).toMatchObject({ configFile: 'a.properties', stateDir: '/s' });
    expect(resolveRunOptions('app.ts', { config: 'b.properties', stateDir: '/t' }, { SLUICE_CONFIG: 'a.properties' })).toMatchObject({ configFile: 'b.properties', stateDir: '/t' });
    expect(() => resolveRunOptions('app.ts', { stateDir: ' ' }, {})).toThrow('--state-dir must be a directory path, got an empty value');
  });

  it('--help names --config, --state-dir and the precedence', async () => {
    const out = sink();
    expect(await runCli(['run', '--help'], { stdout: out.stream, stderr: sink().stream, env: {}, cwd: ROOT })).toBe(0);
    expect(out.text()).toContain('--config <file>');
    expect(out.text()).toContain('--state-dir <dir>');
    expect(out.text()).toContain('Config precedence (highest first): command-line flags, environment variables');
  });
});

describe('sluice describe --config', () => {
  it('prints the topology, then each property with the sluice key it sets; secrets [hidden]', async () => {
    const out = sink();
    const env = { CC_API_KEY: 'CCKEY', CC_API_SECRET: SECRET, SR_API_KEY: 'SRKEY', SR_API_SECRET: 'sr-other-secret' };
    const code = await runCli(['describe', 'test/unit/cli/fixtures/props-app.ts', '--config', 'test/unit/cli/fixtures/confluent-cloud.properties'], {
      stdout: out.stream,
      stderr: sink().stream,
      env,
      cwd: ROOT,
    });
    expect(code).toBe(0);
    const text = out.text();
    expect(text).toContain('Sub-topology: 0');
    expect(text).toContain('Config from test/unit/cli/fixtures/confluent-cloud.properties (secrets shown as [hidden]):');
    expect(text).toContain('  sasl.jaas.config=[hidden]  -> sasl\n');
    expect(text).toContain('  bootstrap.servers=pkc-n00kk.us-east-1.aws.confluent.cloud:9092  -> bootstrapServers\n');
    expect(text).toContain("  producer.linger.ms=20  -> producerConfig['linger.ms']\n");
    expect(text).toContain('  basic.auth.user.info=[hidden]  (ignored: Schema Registry settings');
    expect(text).toContain('  acks=all  -> (checked, nothing to set)\n');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('sr-other-secret');
  });
});

describe('sluice run --config on the embedded cluster', { timeout: 60_000 }, () => {
  it('runs the module with the file: serdes, application.id, state dir; --state-dir and flags win; secrets hidden', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-config-file-'));
    const fileStateDir = join(dir, 'from-file');
    const flagStateDir = join(dir, 'from-flag');
    writeFileSync(
      join(dir, 'app.properties'),
      [
        '# a Kafka Streams config',
        'application.id=props-app-from-file',
        'processing.guarantee=exactly_once_v2',
        'commit.interval.ms=${env:COMMIT_MS}',
        'default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde',
        'default.value.serde=org.apache.kafka.common.serialization.Serdes$StringSerde',
        `state.dir=${fileStateDir}`,
        'schema.registry.url=https://sr.example',
        'basic.auth.user.info=${env:SR_USER_INFO}',
      ].join('\n'),
    );
    const env = { COMMIT_MS: '50', SR_USER_INFO: SECRET, PROPS_SEED_COUNT: '20', PROPS_PREFIX: 'cfg-' };
    Object.assign(process.env, { PROPS_SEED_COUNT: '20', PROPS_PREFIX: 'cfg-' });
    const options = resolveRunOptions('test/unit/cli/fixtures/props-app.ts', { embedded: true, config: join(dir, 'app.properties'), stateDir: flagStateDir, logLevel: 'info', progress: false }, env);
    const out = sink();
    const err = sink();
    seen.length = 0;
    let stop: () => void = () => undefined;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let app: KafkaStreams | undefined;
    const code = await runWorker(options, { stdout: out.stream, stderr: err.stream, cwd: ROOT, env }, {
      handleSignals: false,
      stopSignal,
      onRunning: (running) => {
        app = running;
        const poll = setInterval(() => {
          if (seen.length >= 20) {
            clearInterval(poll);
            stop();
          }
        }, 20);
      },
    });
    delete process.env.PROPS_SEED_COUNT;
    delete process.env.PROPS_PREFIX;
    expect(code, err.text()).toBe(0);
    expect(err.text()).toBe('');
    // the file's String serdes reached the source: values were strings (upper-cased)
    expect(seen.slice(0, 3)).toEqual(['V0', 'V1', 'V2']);
    expect(app).toBeDefined();
    // application.id from the file (over the module's), the state under --state-dir (over state.dir)
    expect(existsSync(join(flagStateDir, 'props-app-from-file'))).toBe(true);
    expect(existsSync(fileStateDir)).toBe(false);
    expect(readdirSync(join(flagStateDir, 'props-app-from-file')).length).toBeGreaterThan(0);
    // the startup line: every property, the secret hidden; the ignored keys named
    const log = out.text();
    expect(log).toContain('"basic.auth.user.info":"[hidden]"');
    expect(log).toContain('"commit.interval.ms":"50"');
    expect(log).toContain('ignored, no effect in sluice: schema.registry.url');
    expect(log).not.toContain(SECRET);
  });

  it('a file error is one line on stderr, exit 2, naming the key and never the secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-config-file-'));
    writeFileSync(
      join(dir, 'bad.properties'),
      'application.id=x\nsecurity.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="${env:PW}";\n',
    );
    const err = sink();
    const code = await runCli(['run', 'test/unit/cli/fixtures/props-app.ts', '--embedded', '--config', join(dir, 'bad.properties')], {
      stdout: sink().stream,
      stderr: err.stream,
      env: { PW: SECRET },
      cwd: ROOT,
    });
    expect(code).toBe(2);
    expect(err.text()).toMatch(/^sluice: sasl\.jaas\.config in .*bad\.properties: sasl\.mechanism=SCRAM-SHA-256 needs org\.apache\.kafka\.common\.security\.scram\.ScramLoginModule[^\n]*\n$/);
    expect(err.text()).not.toContain(SECRET);
    const unknown = sink();
    writeFileSync(join(dir, 'unknown.properties'), 'application.id=x\nupgrade.from=2.3\n');
    expect(await runCli(['run', 'test/unit/cli/fixtures/props-app.ts', '--embedded', '--config', join(dir, 'unknown.properties')], { stdout: sink().stream, stderr: unknown.stream, env: {}, cwd: ROOT })).toBe(2);
    expect(unknown.text()).toMatch(/^sluice: upgrade\.from in .*unknown\.properties: sluice has no equivalent: /);
  });

  it('a value the runtime refuses names the property that set it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-config-file-'));
    writeFileSync(join(dir, 'tx.properties'), 'application.id=x\ncommit.interval.ms=70000\n');
    const err = sink();
    expect(await runCli(['run', 'test/unit/cli/fixtures/props-app.ts', '--embedded', '--config', join(dir, 'tx.properties')], { stdout: sink().stream, stderr: err.stream, env: {}, cwd: ROOT })).toBe(2);
    expect(err.text()).toContain("Config 'commitIntervalMs' (70000) must be smaller than 'transactionTimeoutMs'");
    expect(err.text()).toContain('(set by commit.interval.ms in ');
  });
});
