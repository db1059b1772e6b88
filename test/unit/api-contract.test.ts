/**
 * shared/API.md as tests: every name of "Entry points" is exported (and no
 * more internals than intended), the snippets compile with tsc and run, and the
 * behaviours API.md promises hold on the embedded cluster.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as sluice from '../../src/index.js';
import * as testing from '../../src/testing.js';
import {
  IllegalStateError,
  InvalidRecordError,
  KafkaStreams,
  RecordTooLargeError,
  Serdes,
  StreamsBuilder,
  TransactionalProducer,
  TxnSendOption,
  type ProcessorContext,
  type Record as SluiceRecord,
} from '../../src/index.js';
import { EmbeddedKafkaCluster, TopologyTestDriver } from '../../src/testing.js';
import { handlerResponseToTxnSendOption } from '../../src/eos/txn-send-option.js';
import { buildingATopology, theEmbeddedCluster, theProducerOnItsOwn } from './api-contract-snippets.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SNIPPETS = fileURLToPath(new URL('./api-contract-snippets.ts', import.meta.url));
const INDEX = `${ROOT}src/index.ts`;
const TESTING = `${ROOT}src/testing.ts`;

const API_NAMES = [
  'StreamsBuilder', 'Topology', 'KafkaStreams', 'Serdes', 'KeyValue',
  'TransactionalProducer', 'TxnSendOption',
  'ProductionExceptionHandlerResponse', 'DeserializationHandlerResponse', 'ProcessingHandlerResponse',
  'IllegalStateError', 'RecordTooLargeError', 'InvalidRecordError', 'InvalidTimestampError',
  'ProducerFencedError', 'SerializationError', 'StreamsError',
] as const;
const ERROR_NAMES = [
  'IllegalStateError', 'RecordTooLargeError', 'InvalidRecordError', 'InvalidTimestampError',
  'ProducerFencedError', 'SerializationError',
] as const;
const API_STATES = ['CREATED', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING', 'PENDING_ERROR', 'ERROR'];

const clusters: EmbeddedKafkaCluster[] = [];
const apps: KafkaStreams[] = [];
function newCluster(): EmbeddedKafkaCluster {
  const cluster = new EmbeddedKafkaCluster();
  clusters.push(cluster);
  return cluster;
}
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const cluster of clusters.splice(0)) await cluster.close();
});

async function waitFor<T>(probe: () => Promise<T | false | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('entry points: runtime exports', () => {
  it('sluice exports every API.md name as a value', () => {
    const exported = sluice as unknown as Record<string, unknown>;
    for (const name of API_NAMES) expect(exported[name], name).toBeDefined();
    for (const name of ['StreamsBuilder', 'Topology', 'KafkaStreams', 'TransactionalProducer', ...ERROR_NAMES, 'StreamsError']) {
      expect(typeof exported[name], name).toBe('function');
    }
  });

  it('sluice/testing exports EmbeddedKafkaCluster and TopologyTestDriver (and sluice does not)', () => {
    expect(typeof testing.EmbeddedKafkaCluster).toBe('function');
    expect(typeof testing.TopologyTestDriver).toBe('function');
    expect('EmbeddedKafkaCluster' in sluice).toBe(false);
    expect('TopologyTestDriver' in sluice).toBe(false);
  });

  it('the error classes are StreamsErrors with their own names', () => {
    for (const name of ERROR_NAMES) {
      const ErrorClass = sluice[name] as unknown as new (message: string) => Error;
      const error = new ErrorClass('boom');
      expect(error, name).toBeInstanceOf(sluice.StreamsError);
      expect(error, name).toBeInstanceOf(Error);
      expect(error.name, name).toBe(name);
      expect(error.message, name).toContain('boom');
    }
  });

  it('handler response constants hold the strings CONTINUE and FAIL', () => {
    for (const constants of [
      sluice.ProductionExceptionHandlerResponse,
      sluice.DeserializationHandlerResponse,
      sluice.ProcessingHandlerResponse,
    ]) {
      expect(constants.CONTINUE).toBe('CONTINUE');
      expect(constants.FAIL).toBe('FAIL');
    }
    expect(handlerResponseToTxnSendOption('CONTINUE')).toBe(TxnSendOption.IGNORE_SEND_ERRORS);
    expect(handlerResponseToTxnSendOption('FAIL')).toBe(TxnSendOption.NONE);
  });

  it('KeyValue is { key, value }', () => {
    expect(sluice.KeyValue.pair('k', 1)).toEqual({ key: 'k', value: 1 });
  });
});

describe('entry points: compiled by tsc', () => {
  let program: ts.Program;
  let checker: ts.TypeChecker;
  beforeAll(() => {
    const config = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    });
    if (!config) throw new Error('tsconfig.json did not parse');
    program = ts.createProgram([SNIPPETS, INDEX, TESTING], { ...config.options, noEmit: true });
    checker = program.getTypeChecker();
  }, 60_000);

  function exportsOf(file: string): ts.Symbol[] {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`${file} is not in the program`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${file} is not a module`);
    return checker.getExportsOfModule(moduleSymbol);
  }
  const resolve = (symbol: ts.Symbol): ts.Symbol =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  it('the API.md snippets (imports, KeyValue type, state union, serde shape, metrics) type-check', () => {
    const source = program.getSourceFile(SNIPPETS)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(text).toEqual([]);
  }, 60_000);

  it('KeyValue is exported as a type (and value) from sluice; the testing names from sluice/testing', () => {
    const index = new Map(exportsOf(INDEX).map((s) => [s.name, resolve(s)]));
    const keyValue = index.get('KeyValue');
    expect(keyValue).toBeDefined();
    expect(keyValue!.flags & ts.SymbolFlags.Type).not.toBe(0);
    for (const name of API_NAMES) expect(index.has(name), name).toBe(true);
    const testingNames = exportsOf(TESTING).map((s) => s.name);
    expect(testingNames).toEqual(expect.arrayContaining(['EmbeddedKafkaCluster', 'TopologyTestDriver']));
  });

  it('nothing declared under internal/ is exported from sluice or sluice/testing', () => {
    const declaredInInternal = new Set<string>();
    const leaks: string[] = [];
    for (const file of [INDEX, TESTING]) {
      for (const symbol of exportsOf(file)) {
        for (const declaration of resolve(symbol).declarations ?? []) {
          const path = declaration.getSourceFile().fileName;
          if (/\/internal\//.test(path) && !declaredInInternal.has(symbol.name)) leaks.push(`${symbol.name} (${path.slice(ROOT.length)})`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('every runtime export of sluice and sluice/testing has a TSDoc comment at its declaration', () => {
    const undocumented: string[] = [];
    for (const file of [INDEX, TESTING]) {
      for (const symbol of exportsOf(file)) {
        const target = resolve(symbol);
        if (!(target.flags & ts.SymbolFlags.Value)) continue;
        const doc = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
        if (doc === '') undocumented.push(symbol.name);
      }
    }
    expect(undocumented).toEqual([]);
  });
});

describe('entry points: source text and package.json', () => {
  function moduleSpecifiers(file: string): string[] {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const specifiers: string[] = [];
    source.forEachChild((node) => {
      if ((ts.isExportDeclaration(node) || ts.isImportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        specifiers.push(node.moduleSpecifier.text);
      }
    });
    return specifiers;
  }

  it('src/index.ts and src/testing.ts re-export nothing from an internal/ folder', () => {
    for (const file of [INDEX, TESTING]) {
      const specifiers = moduleSpecifiers(file);
      expect(specifiers.length, file).toBeGreaterThan(0);
      expect(specifiers.filter((s) => s.split('/').includes('internal')), file).toEqual([]);
      expect(specifiers.every((s) => s.startsWith('./') && s.endsWith('.js')), file).toBe(true);
    }
  });

  it('the exports map has only ".", "./testing" and "./package.json"', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      name: string;
      type: string;
      exports: Record<string, unknown>;
      files: string[];
      bin: Record<string, string>;
    };
    expect(pkg.name).toBe('sluice');
    expect(pkg.type).toBe('module');
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './package.json', './testing']);
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.exports['./testing']).toEqual({ types: './dist/testing.d.ts', import: './dist/testing.js' });
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'bin']));
    expect(pkg.bin.sluice).toBe('./bin/sluice.js');
  });
});

describe('KStream, Serdes', () => {
  it('KStream has the API.md operations, and groupByKey has count/reduce/aggregate', () => {
    const stream = new StreamsBuilder().stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const methods = ['filter', 'filterNot', 'map', 'mapValues', 'flatMap', 'flatMapValues', 'peek', 'foreach', 'merge', 'split', 'process', 'to', 'groupByKey', 'groupBy'];
    for (const method of methods) expect(typeof (stream as unknown as Record<string, unknown>)[method], method).toBe('function');
    expect(typeof stream.split().branch).toBe('function');
    const grouped = stream.groupByKey();
    for (const method of ['count', 'reduce', 'aggregate']) expect(typeof (grouped as unknown as Record<string, unknown>)[method], method).toBe('function');
  });

  it('the operations run through the TopologyTestDriver', () => {
    const S = Serdes.String();
    const builder = new StreamsBuilder();
    const seen: string[] = [];
    const a = builder.stream<string, string>('a', { keySerde: S, valueSerde: S });
    const b = builder.stream<string, string>('b', { keySerde: S, valueSerde: S });
    const values = a
      .merge(b)
      .filter((_k, v) => v !== 'drop')
      .filterNot((_k, v) => v === 'skip')
      .peek((k) => seen.push(`peek:${k}`))
      .flatMapValues((v) => v.split(','))
      .mapValues((v) => v.trim().toUpperCase());
    values.foreach((k, v) => seen.push(`${k}=${v}`));
    values
      .flatMap((k, v) => [{ key: `${k}1`, value: v }, { key: `${k}2`, value: v }])
      .map((k, v) => ({ key: v, value: k }))
      .to('mapped', { keySerde: S, valueSerde: S });
    let context!: ProcessorContext<string, string>;
    values
      .process<string, string>(() => ({
        init(ctx: ProcessorContext<string, string>) {
          context = ctx;
        },
        process(record: SluiceRecord<string, string>) {
          context.forward(record.withValue(`p(${record.value})`));
        },
      }))
      .to('processed', { keySerde: S, valueSerde: S });
    values.split().branch((_k, v) => v.startsWith('X'), sluice.Branched.withConsumer((s) => s.to('xs', { keySerde: S, valueSerde: S })));
    values.groupByKey().count().toStream().to('counts', { keySerde: S, valueSerde: Serdes.Json<number>() });
    values.groupByKey().reduce((x, y) => `${x}+${y}`).toStream().to('reduced', { keySerde: S, valueSerde: S });
    values.groupByKey().aggregate(() => 0, (_k, v, agg: number) => agg + v.length, { valueSerde: Serdes.Json<number>() })
      .toStream().to('lengths', { keySerde: S, valueSerde: Serdes.Json<number>() });
    values.groupBy((_k, v) => v, { keySerde: S }).count().toStream().to('by-value', { keySerde: S, valueSerde: Serdes.Json<number>() });

    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic('a', S, S).pipeInput('k', 'x1, y');
      driver.createInputTopic('b', S, S).pipeInput('k', 'drop');
      driver.createInputTopic('b', S, S).pipeInput('k', 'skip');
      driver.createInputTopic('b', S, S).pipeInput('j', 'x2');
      expect(seen).toEqual(['peek:k', 'k=X1', 'k=Y', 'peek:j', 'j=X2']);
      expect(driver.createOutputTopic('mapped', S, S).readKeyValuesToList()).toEqual([
        { key: 'X1', value: 'k1' }, { key: 'X1', value: 'k2' }, { key: 'Y', value: 'k1' }, { key: 'Y', value: 'k2' },
        { key: 'X2', value: 'j1' }, { key: 'X2', value: 'j2' },
      ]);
      expect(driver.createOutputTopic('processed', S, S).readValuesToList()).toEqual(['p(X1)', 'p(Y)', 'p(X2)']);
      expect(driver.createOutputTopic('xs', S, S).readValuesToList()).toEqual(['X1', 'X2']);
      expect(driver.createOutputTopic('counts', S, Serdes.Json<number>()).readKeyValuesToMap()).toEqual(new Map([['k', 2], ['j', 1]]));
      expect(driver.createOutputTopic('reduced', S, S).readKeyValuesToMap()).toEqual(new Map([['k', 'X1+Y'], ['j', 'X2']]));
      expect(driver.createOutputTopic('lengths', S, Serdes.Json<number>()).readKeyValuesToMap()).toEqual(new Map([['k', 3], ['j', 2]]));
      expect(driver.createOutputTopic('by-value', S, Serdes.Json<number>()).readKeyValuesToMap()).toEqual(new Map([['X1', 1], ['Y', 1], ['X2', 1]]));
    } finally {
      driver.close();
    }
  });

  it('Serdes String, Json, Buffer and Int32 round-trip, and a null key serializes to null', () => {
    const json = Serdes.Json<{ a: number[] }>();
    expect(json.deserialize('t', json.serialize('t', { a: [1, 2] })!)).toEqual({ a: [1, 2] });
    expect(Serdes.String().deserialize('t', Serdes.String().serialize('t', 'héllo')!)).toBe('héllo');
    expect(Serdes.Int32().serialize('t', 258)).toEqual(Buffer.from([0, 0, 1, 2]));
    expect(Serdes.Int32().deserialize('t', Buffer.from([255, 255, 255, 254]))).toBe(-2);
    const bytes = Buffer.from([1, 2, 3]);
    expect(Serdes.Buffer().deserialize('t', Serdes.Buffer().serialize('t', bytes)!)).toEqual(bytes);
    for (const serde of [Serdes.String(), Serdes.Json<unknown>(), Serdes.Buffer(), Serdes.Int32()]) {
      expect((serde.serialize as (topic: string, data: unknown) => Buffer | null)('t', null)).toBeNull();
    }
  });
});

describe('API.md snippets run', () => {
  it('"Building a topology" builds and describes in/filter/map/mapValues/out, and processes as written', () => {
    let printed = '';
    const topology = buildingATopology((text) => (printed = text));
    expect(printed).toBe(topology.describe().toString());
    expect(printed).toMatch(/Source: \S+ \(topics: \[in\]\)/);
    expect(printed).toMatch(/Sink: \S+ \(topic: out\)/);
    for (const node of ['FILTER', 'MAP', 'MAPVALUES']) expect(printed).toContain(`KSTREAM-${node}-`);
    const S = Serdes.String();
    const driver = new TopologyTestDriver(topology);
    try {
      const input = driver.createInputTopic('in', S, S);
      input.pipeInput('a', 'hello');
      input.pipeInput('b', '');
      expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'hel', value: 'HELLO' }]);
    } finally {
      driver.close();
    }
  });

  it('"The embedded cluster": createTopic with configs, produce, endOffsets, committedOffsets (-1), reads', async () => {
    const cluster = newCluster();
    const before = Date.now();
    const result = await theEmbeddedCluster(cluster);
    expect(result.endOffsets).toEqual([1, 0]);
    expect(result.committedOffsets).toEqual([-1, -1]);
    expect(result.readCommitted).toEqual([]);
    expect(result.readUncommitted).toEqual([]);
    const described = await cluster.describeTopic('out');
    expect(JSON.stringify(described)).toContain('2048');
    expect(result.inRecords).toHaveLength(1);
    const record = result.inRecords[0]!;
    expect(Object.keys(record).sort()).toEqual(['headers', 'key', 'offset', 'partition', 'timestamp', 'topic', 'value']);
    expect(record).toMatchObject({ topic: 'in', partition: 0, offset: 0, headers: {} });
    expect(Buffer.isBuffer(record.key) && record.key.toString()).toBe('k1');
    expect(Buffer.isBuffer(record.value) && record.value.toString()).toBe('v1');
    expect(record.timestamp).toBeGreaterThanOrEqual(before);
    expect(record.timestamp).toBeLessThanOrEqual(Date.now());
    await cluster.produce('in', [{ key: null, value: null, partition: 1 }]);
    const [nullRecord] = (await cluster.readUncommitted('in')).filter((r) => r.partition === 1);
    expect(nullRecord).toMatchObject({ key: null, value: null });
  });

  it('"The producer on its own": send in a transaction, commit, read_committed sees it', async () => {
    const cluster = newCluster();
    await theEmbeddedCluster(cluster);
    const meta = await theProducerOnItsOwn(cluster);
    expect(meta).toMatchObject({ topic: 'out', offset: 0 });
    const committed = await cluster.readCommitted('out');
    expect(committed.map((r) => [r.key?.toString(), r.value?.toString(), r.partition])).toEqual([['k', 'v', meta.partition]]);
  });

  it('the producer: IGNORE_SEND_ERRORS without a transaction throws IllegalStateError synchronously', async () => {
    const cluster = newCluster();
    await cluster.createTopic('out', { partitions: 1 });
    const producer = new TransactionalProducer({ transactionalId: 'tx-sync', cluster });
    await producer.initTransactions();
    let thrown: unknown;
    let returned: unknown;
    try {
      returned = producer.send({ topic: 'out', key: 'k', value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    } catch (error) {
      thrown = error;
    }
    expect(returned).toBeUndefined();
    expect(thrown).toBeInstanceOf(IllegalStateError);
    await producer.close();
    expect(await cluster.endOffsets('out')).toEqual([0]);
  });

  it('the producer: too large rejects with RecordTooLargeError, null key on a compacted topic with InvalidRecordError; the rest commits', async () => {
    const cluster = newCluster();
    await cluster.createTopic('out', { partitions: 1, config: { 'cleanup.policy': 'compact', 'max.message.bytes': '2048' } });
    const producer = new TransactionalProducer({ transactionalId: 'tx-errors', cluster });
    await producer.initTransactions();
    producer.beginTransaction();
    const callbackErrors: unknown[] = [];
    const tooLarge = producer.send({ topic: 'out', key: 'big', value: 'x'.repeat(4096) }, (error) => callbackErrors.push(error), TxnSendOption.IGNORE_SEND_ERRORS);
    const nullKey = producer.send({ topic: 'out', key: null, value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    const good = producer.send({ topic: 'out', key: 'ok', value: 'fine' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    await expect(tooLarge).rejects.toBeInstanceOf(RecordTooLargeError);
    await expect(nullKey).rejects.toBeInstanceOf(InvalidRecordError);
    await expect(good).resolves.toMatchObject({ topic: 'out', partition: 0 });
    expect(callbackErrors).toHaveLength(1);
    expect(callbackErrors[0]).toBeInstanceOf(RecordTooLargeError);
    await producer.commitTransaction();
    await producer.close();
    const committed = await cluster.readCommitted('out');
    expect(committed.map((r) => `${r.key?.toString()}=${r.value?.toString()}`)).toEqual(['ok=fine']);
  });
});

describe('KafkaStreams on an EmbeddedKafkaCluster', () => {
  it('goes through the API.md states, processes, and reports the API.md metrics', async () => {
    const cluster = newCluster();
    await cluster.createTopic('in', { partitions: 2 });
    await cluster.createTopic('out', { partitions: 2 });
    await cluster.produce('in', [
      { key: 'a', value: 'one' },
      { key: 'b', value: 'two' },
      { key: 'c', value: 'three' },
    ]);
    const S = Serdes.String();
    const builder = new StreamsBuilder();
    builder.stream<string, string>('in', { keySerde: S, valueSerde: S }).mapValues((v) => v.toUpperCase()).to('out', { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build(), { applicationId: 'orders-app', cluster });
    apps.push(app);
    const states: string[] = [];
    const subscription = app.state$.subscribe((state) => states.push(state));
    expect(app.state).toBe('CREATED');
    await app.start();
    expect(app.state).toBe('RUNNING');
    const out = await waitFor(async () => {
      const records = await cluster.readCommitted('out');
      return records.length >= 3 && records;
    });
    expect(out.map((r) => r.value?.toString()).sort()).toEqual(['ONE', 'THREE', 'TWO']);
    const end = await cluster.endOffsets('in');
    await waitFor(async () => (await cluster.committedOffsets('orders-app', 'in')).every((c, i) => c === (end[i] === 0 ? -1 : end[i])));
    const metrics = app.metrics();
    for (const key of ['recordsProcessed', 'recordsProduced', 'droppedRecords', 'commits', 'aborts'] as const) {
      expect(typeof metrics[key], key).toBe('number');
    }
    expect(metrics).toMatchObject({ recordsProcessed: 3, recordsProduced: 3, droppedRecords: 0, aborts: 0 });
    expect(metrics.commits).toBeGreaterThan(0);
    await app.close();
    await app.close(); // idempotent
    expect(app.state).toBe('NOT_RUNNING');
    subscription.unsubscribe();
    expect(states[0]).toBe('CREATED');
    expect(states).toContain('RUNNING');
    expect(states.at(-1)).toBe('NOT_RUNNING');
    for (const state of states) expect(API_STATES).toContain(state);
  });
});
