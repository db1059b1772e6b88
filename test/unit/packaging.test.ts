/**
 * The package as users get it (API.md "Entry points"): `npm pack` of a copy of
 * the repository (its `prepack` builds dist/), then
 * - inside that copy, a script imports `sluice` and `sluice/testing` through
 *   the package's self-reference (exports map);
 * - a fresh project installs the tarball (offline, from the npm cache that
 *   `npm ci` filled; falling back to --prefer-offline), runs a script using
 *   both entry points, type-checks a TypeScript consumer against the installed
 *   declarations, cannot deep-import, and runs the `sluice` bin (from dist/, as
 *   tsx is not installed there).
 * Everything happens in one temporary directory; the repository gets no dist/.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without vitest's and the parent npm's variables (they would change what the children do). */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('VITEST') || key.startsWith('npm_') || key.startsWith('SLUICE_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  return { ...env, CI: 'true', NO_UPDATE_NOTIFIER: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

function run(command: string, args: string[], cwd: string, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function ok(result: Run, what: string): Run {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  return result;
}

let temp = '';
let stage = '';
let project = '';
let packedFiles: string[] = [];

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'sluice-pack-'));
  // A copy of what `npm pack` in the repository would see, with the repository's node_modules for the build.
  stage = join(temp, 'sluice');
  mkdirSync(stage);
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'docs', 'tsconfig.json', 'tsconfig.build.json', 'src', 'bin']) {
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'), 'dir');
  const packed = ok(await run('npm', ['pack', '--json', '--pack-destination', temp], stage, 120_000), 'npm pack');
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedFiles = info!.files.map((f) => f.path);
  const tarball = join(temp, info!.filename);

  project = join(temp, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  const installArgs = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tarball];
  const offline = await run('npm', [...installArgs, '--offline'], project, 90_000);
  if (offline.code !== 0) ok(await run('npm', [...installArgs, '--prefer-offline'], project, 120_000), 'npm install --prefer-offline');
}, 240_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('contains dist (JavaScript and declarations for both entry points and the CLI) and bin, no sources or tests', () => {
    for (const file of ['package.json', 'bin/sluice.js', 'dist/index.js', 'dist/index.d.ts', 'dist/testing.js', 'dist/testing.d.ts', 'dist/cli/main.js']) {
      expect(packedFiles, file).toContain(file);
    }
    expect(packedFiles.filter((f) => /^(src|test|examples|bench|scripts)\//.test(f) || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('resolves sluice and sluice/testing by self-reference from a script inside the repository copy', async () => {
    mkdirSync(join(stage, 'scripts'), { recursive: true });
    writeFileSync(
      join(stage, 'scripts', 'self-reference.mjs'),
      [
        "import { StreamsBuilder, KafkaStreams, Serdes } from 'sluice';",
        "import { EmbeddedKafkaCluster, TopologyTestDriver } from 'sluice/testing';",
        'console.log([StreamsBuilder, KafkaStreams, EmbeddedKafkaCluster, TopologyTestDriver].map((c) => c.name).join(","), typeof Serdes.String);',
      ].join('\n'),
    );
    const result = ok(await run(process.execPath, ['scripts/self-reference.mjs'], stage), 'self-reference script');
    expect(result.stdout.trim()).toBe('StreamsBuilder,KafkaStreams,EmbeddedKafkaCluster,TopologyTestDriver function');

    // ... and with type declarations: a .ts script in the copy type-checks against dist/*.d.ts.
    writeFileSync(
      join(stage, 'scripts', 'self-reference.ts'),
      [
        "import { StreamsBuilder, Serdes, type KeyValue } from 'sluice';",
        "import { TopologyTestDriver } from 'sluice/testing';",
        "const pair: KeyValue<string, number> = { key: 'a', value: 1 };",
        "const driver: TopologyTestDriver = new TopologyTestDriver(new StreamsBuilder().build());",
        '// @ts-expect-error a serde is not a number (an untyped import would make this directive unused: an error)',
        'const wrong: number = Serdes.String();',
        'export { pair, driver, wrong };',
      ].join('\n'),
    );
    writeFileSync(
      join(stage, 'tsconfig.self.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
        files: ['scripts/self-reference.ts'],
      }),
    );
    const typed = await run(process.execPath, [TSC, '-p', 'tsconfig.self.json'], stage);
    expect(typed.stdout + typed.stderr).toBe('');
    expect(typed.code).toBe(0);
  }, 120_000);
});

/** The file `from` (a packed path) names by the relative `target`, as a packed path (posix). */
function packedPath(from: string, target: string): string {
  return normalize(join(dirname(from), target.split(/[?#]/)[0]!)).replaceAll('\\', '/');
}

/** The public members (no `private`, no `#private`) of `export declare class name` in a .d.ts text. */
function publicMembers(dts: string, name: string): string[] {
  const lines = dts.split('\n');
  let i = lines.findIndex((l) => new RegExp(`^export (declare class|interface) ${name}[ <]`).test(l));
  expect(i, `class or interface ${name}`).toBeGreaterThanOrEqual(0);
  const members: string[] = [];
  for (i++; lines[i] !== '}'; i++) {
    const m = /^ {4}(?:readonly |static |get |set )*([A-Za-z_$#][\w$]*)/.exec(lines[i]!);
    if (m && !lines[i]!.startsWith('    private ') && m[1] !== '#private') members.push(m[1]!);
  }
  return members;
}

describe('what the tarball ships (issue 29 item 12)', () => {
  const installed = (): string => join(project, 'node_modules', 'sluice');
  const read = (file: string): string => readFileSync(join(installed(), file), 'utf8');

  it('ships no source map naming a file outside the tarball (src/ is not shipped; maps are not built)', () => {
    const maps = packedFiles.filter((f) => f.endsWith('.map'));
    for (const map of maps) {
      const { sources } = JSON.parse(read(map)) as { sources: string[] };
      for (const source of sources) expect(packedFiles, `${map} -> ${source}`).toContain(packedPath(map, source));
    }
    for (const file of packedFiles.filter((f) => /\.(js|d\.ts)$/.test(f))) {
      const url = /\/\/# sourceMappingURL=(\S+)/.exec(read(file))?.[1];
      if (url !== undefined) expect(packedFiles, `${file} -> ${url}`).toContain(packedPath(file, url));
    }
    expect(maps).toEqual([]);
  });

  it('ships the Apache License 2.0 text that package.json names', () => {
    expect(packedFiles).toContain('LICENSE');
    const text = read('LICENSE');
    expect(text).toContain('Apache License\n                           Version 2.0, January 2004');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
    expect(JSON.parse(read('package.json')).license).toBe('Apache-2.0');
  });

  it('publishes no internal member of the public classes in the declarations (stripInternal)', () => {
    const internal = ['ctx', 'serdes', 'supplier', 'serdesOr', 'valueGetterSupplier', 'enableSendingOldValues', 'sendingOldValueEnabled', 'addTableNode'];
    const classes: Array<[string, string]> = [
      ['dist/runtime/kafka-streams.d.ts', 'KafkaStreams'],
      ['dist/topology/dsl-interfaces.d.ts', 'KStream'],
      ['dist/topology/dsl-interfaces.d.ts', 'KTable'],
      ['dist/testing/topology-test-driver.d.ts', 'TopologyTestDriver'],
    ];
    for (const [file, name] of classes) {
      const dts = read(file);
      const members = publicMembers(dts, name);
      expect(members.length, name).toBeGreaterThan(5);
      expect(members.filter((m) => internal.includes(m)), name).toEqual([]);
      expect(dts, name).not.toMatch(/BuilderContext|KTableProcessorSupplier|StreamSerdes/);
    }
    // The public surface of KStream and KTable is what users may call (and the names of their nodes/stores);
    // their implementations (KStreamImpl, KTableImpl: @internal) are not declared at all.
    expect(publicMembers(read('dist/topology/dsl-interfaces.d.ts'), 'KStream')).toEqual(expect.arrayContaining(['nodeName', 'filter', 'to', 'groupByKey']));
    expect(read('dist/topology/kstream.d.ts')).not.toMatch(/class KStreamImpl/);
    expect(read('dist/topology/ktable.d.ts')).not.toMatch(/class KTableImpl/);
  });

  it('names only files that are in the tarball: package.json entries, .js/.d.ts imports, README/docs links', () => {
    const pkg = JSON.parse(read('package.json')) as { types: string; bin: Record<string, string>; exports: Record<string, string | Record<string, string>> };
    const entries = [pkg.types, ...Object.values(pkg.bin)];
    for (const value of Object.values(pkg.exports)) entries.push(...(typeof value === 'string' ? [value] : Object.values(value)));
    for (const entry of entries) expect(packedFiles, `package.json -> ${entry}`).toContain(packedPath('package.json', entry));

    const missing: string[] = [];
    for (const file of packedFiles) {
      const text = /\.(js|d\.ts|md)$/.test(file) ? read(file) : '';
      const targets = file.endsWith('.md')
        ? [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^([a-z]+:|#)/.test(t))
        : [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)].map((m) => m[1]!);
      for (const target of targets) if (!packedFiles.includes(packedPath(file, target))) missing.push(`${file} -> ${target}`);
    }
    expect(missing).toEqual([]);
    expect(packedFiles).toEqual(expect.arrayContaining(['README.md', 'docs/migrating-from-kafka-streams.md', 'docs/images/ui-orders.png']));
  });
});

describe('bin/sluice.js in a source checkout', () => {
  it('runs src/ through tsx even when a (stale) dist/ exists', async () => {
    expect(existsSync(join(stage, 'dist', 'cli', 'main.js'))).toBe(true);
    writeFileSync(join(stage, 'dist', 'cli', 'main.js'), "console.log('STALE DIST');\n");
    const result = ok(await run(process.execPath, ['bin/sluice.js', '--help'], stage), 'bin/sluice.js --help');
    expect(result.stdout).not.toContain('STALE DIST');
    expect(result.stdout).toContain('Usage: sluice');
  });
});

describe('a project that installed the package', () => {
  it('installs sluice with its dependencies but without tsx', () => {
    expect(existsSync(join(project, 'node_modules', 'sluice', 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'sluice', 'src'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'kafkajs'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
  });

  it('runs a topology through the TopologyTestDriver and an app and a producer on the EmbeddedKafkaCluster', async () => {
    writeFileSync(
      join(project, 'use.mjs'),
      `import { StreamsBuilder, KafkaStreams, TransactionalProducer, TxnSendOption, Serdes, IllegalStateError } from 'sluice';
import { EmbeddedKafkaCluster, TopologyTestDriver } from 'sluice/testing';

const S = Serdes.String();
const builder = new StreamsBuilder();
builder.stream('in', { keySerde: S, valueSerde: S }).mapValues((v) => v.toUpperCase()).to('out', { keySerde: S, valueSerde: S });
const topology = builder.build();

const driver = new TopologyTestDriver(topology);
driver.createInputTopic('in', S, S).pipeInput('k', 'hello');
const driverOut = driver.createOutputTopic('out', S, S).readKeyValuesToList();
driver.close();

const cluster = new EmbeddedKafkaCluster();
await cluster.createTopic('in', { partitions: 1 });
await cluster.createTopic('out', { partitions: 1 });
await cluster.produce('in', [{ key: 'a', value: 'x' }, { key: 'b', value: 'y' }]);
const app = new KafkaStreams(topology, { applicationId: 'pkg-app', cluster });
await app.start();
const startedState = app.state;
let appOut = [];
for (let i = 0; i < 400 && appOut.length < 2; i++) {
  appOut = await cluster.readCommitted('out');
  await new Promise((r) => setTimeout(r, 25));
}
await app.close();

const producer = new TransactionalProducer({ transactionalId: 'pkg-tx', cluster });
await producer.initTransactions();
let illegal = 'not thrown';
try { producer.send({ topic: 'out', key: 'p', value: 'q' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS); } catch (e) { illegal = e instanceof IllegalStateError; }
producer.beginTransaction();
await producer.send({ topic: 'out', key: 'p', value: 'q' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
await producer.commitTransaction();
await producer.close();
const all = (await cluster.readCommitted('out')).map((r) => r.key.toString() + '=' + r.value.toString());
await cluster.close();
console.log(JSON.stringify({ driverOut, startedState, finalState: app.state, processed: app.metrics().recordsProcessed, illegal, all }));
`,
    );
    const result = ok(await run(process.execPath, ['use.mjs'], project, 60_000), 'use.mjs');
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toEqual({
      driverOut: [{ key: 'k', value: 'HELLO' }],
      startedState: 'RUNNING',
      finalState: 'NOT_RUNNING',
      processed: 2,
      illegal: true,
      all: ['a=X', 'b=Y', 'p=q'],
    });
  });

  it('serves the live UI from the installed package: the page, its script and both libraries (issue 20)', async () => {
    expect(packedFiles).toContain('dist/ui/server.js');
    writeFileSync(
      join(project, 'ui.mjs'),
      `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StreamsBuilder, KafkaStreams, Serdes } from 'sluice';
import { EmbeddedKafkaCluster } from 'sluice/testing';

const S = Serdes.String();
const builder = new StreamsBuilder();
builder.stream('in', { keySerde: S, valueSerde: S }).to('out', { keySerde: S, valueSerde: S });
const cluster = new EmbeddedKafkaCluster();
await cluster.createTopic('in', { partitions: 1 });
await cluster.createTopic('out', { partitions: 1 });
const app = new KafkaStreams(builder.build(), { applicationId: 'pkg-ui', cluster });
const ui = await app.serveUi({ port: 0 });
await app.start();
const require = createRequire(import.meta.url);
const files = {
  'lib/dagre.min.js': join(dirname(require.resolve('@dagrejs/dagre')), 'dagre.min.js'),
  'lib/uPlot.iife.min.js': require.resolve('uplot/dist/uPlot.iife.min.js'),
};
const out = { host: ui.host };
for (const path of ['', 'ui.js', 'ui-graph.js', 'ui.css', ...Object.keys(files)]) {
  const res = await fetch(ui.url + path);
  const body = Buffer.from(await res.arrayBuffer());
  out[path || '/'] = { status: res.status, type: res.headers.get('content-type'), same: files[path] ? body.equals(readFileSync(files[path])) : body.length > 100 };
}
out.snapshotState = (await (await fetch(ui.url + 'snapshot')).json()).state;
await app.close();
await cluster.close();
console.log(JSON.stringify(out));
`,
    );
    const result = ok(await run(process.execPath, ['ui.mjs'], project, 60_000), 'ui.mjs');
    const html = { status: 200, type: 'text/html; charset=utf-8', same: true };
    const js = { status: 200, type: 'text/javascript; charset=utf-8', same: true };
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toEqual({
      host: '127.0.0.1',
      '/': html,
      'ui.js': js,
      'ui-graph.js': js,
      'ui.css': { status: 200, type: 'text/css; charset=utf-8', same: true },
      'lib/dagre.min.js': js,
      'lib/uPlot.iife.min.js': js,
      snapshotState: 'RUNNING',
    });
  });

  it('type-checks a TypeScript consumer against the installed declarations, and rejects a wrong one', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true,
          // skipLibCheck false: sluice's own declarations must type-check too
          skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(project, 'consumer.ts'),
      `import {
  StreamsBuilder, Topology, KafkaStreams, Serdes, KeyValue, TransactionalProducer, TxnSendOption,
  ProductionExceptionHandlerResponse, DeserializationHandlerResponse, ProcessingHandlerResponse,
  IllegalStateError, RecordTooLargeError, InvalidRecordError, InvalidTimestampError,
  ProducerFencedError, SerializationError, StreamsError,
} from 'sluice';
import { EmbeddedKafkaCluster, TopologyTestDriver } from 'sluice/testing';

const builder = new StreamsBuilder();
builder
  .stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
  .filter((key, value) => value !== '')
  .map((key, value) => ({ key: value.slice(0, 3), value }))
  .mapValues((value) => value.toUpperCase())
  .to('out', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
const topology: Topology = builder.build();
const pair: KeyValue<string, number> = { key: 'a', value: 1 };
const cluster = new EmbeddedKafkaCluster();
const app = new KafkaStreams(topology, {
  applicationId: 'orders-app',
  cluster,
  productionExceptionHandler: { handle: () => ProductionExceptionHandlerResponse.CONTINUE },
  deserializationExceptionHandler: { handle: () => DeserializationHandlerResponse.FAIL },
  processingExceptionHandler: { handle: () => ProcessingHandlerResponse.FAIL },
});
const state: 'CREATED' | 'REBALANCING' | 'RUNNING' | 'PENDING_SHUTDOWN' | 'NOT_RUNNING' | 'PENDING_ERROR' | 'ERROR' = app.state;
const processed: number = app.metrics().recordsProcessed;
const producer = new TransactionalProducer({ transactionalId: 'tx-1', cluster });
const sent: Promise<{ topic: string; partition: number; offset: number }> = producer.send({ topic: 'out', key: 'k', value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
const errors: Array<typeof StreamsError> = [IllegalStateError, RecordTooLargeError, InvalidRecordError, InvalidTimestampError, ProducerFencedError, SerializationError];
const driver: TopologyTestDriver = new TopologyTestDriver(topology);
export { pair, state, processed, sent, errors, driver };
`,
    );
    const good = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project, 60_000);
    expect(good.stdout + good.stderr).toBe('');
    expect(good.code).toBe(0);

    writeFileSync(join(project, 'tsconfig.bad.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { skipLibCheck: true }, files: ['bad.ts'] }));
    writeFileSync(
      join(project, 'bad.ts'),
      "import { Serdes } from 'sluice';\nimport { EmbeddedKafkaCluster } from 'sluice/testing';\nconst n: number = Serdes.String();\nvoid new EmbeddedKafkaCluster().readCommitted(42);\nexport { n };\n",
    );
    const bad = await run(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], project, 60_000);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toContain('bad.ts(3,');
    expect(bad.stdout).toContain('bad.ts(4,');
  }, 150_000);

  it('cannot deep-import past the exports map', async () => {
    for (const specifier of ['sluice/src/index.ts', 'sluice/dist/index.js', 'sluice/dist/runtime/kafka-streams.js']) {
      const result = await run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`], project);
      expect(result.code, specifier).not.toBe(0);
      expect(result.stderr, specifier).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    }
    const pkg = await run(process.execPath, ['--input-type=module', '-e', "import { createRequire } from 'node:module'; console.log(createRequire(import.meta.url)('sluice/package.json').name)"], project);
    expect(pkg.stdout.trim()).toBe('sluice');
  });

  it('runs the sluice bin from dist/: --help and describe of an app module importing sluice', async () => {
    const help = ok(await run('npx', ['--no-install', 'sluice', '--help'], project), 'npx sluice --help');
    expect(help.stdout).toContain('Usage: sluice');
    expect(help.stdout).toContain('describe');
    writeFileSync(
      join(project, 'app.mjs'),
      `import { defineApp, StreamsBuilder, Serdes } from 'sluice';
export default defineApp({
  config: { applicationId: 'pkg-describe' },
  topology() {
    const builder = new StreamsBuilder();
    builder.stream('pkg-orders', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).to('pkg-orders-out');
    return builder;
  },
});
`,
    );
    const described = ok(await run('npx', ['--no-install', 'sluice', 'describe', 'app.mjs'], project), 'npx sluice describe');
    expect(described.stdout).toContain('(topics: [pkg-orders])');
    expect(described.stdout).toContain('(topic: pkg-orders-out)');
    expect(JSON.parse(readFileSync(join(project, 'node_modules', 'sluice', 'package.json'), 'utf8')).bin).toEqual({ sluice: './bin/sluice.js' });
  });
});
