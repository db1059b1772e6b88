/**
 * Issue 34, on the embedded cluster and on real Kafka, with the in-process
 * Schema Registry (sluice/testing) over HTTP:
 * - a round trip with each format (Avro, JSON Schema, Protobuf): inputs
 *   written in the Confluent wire format are read, transformed and written
 *   back; the output bytes carry the id the registry gave the output subject
 *   and their payload decodes with avsc / JSON / protobufjs directly;
 * - a record with an unknown schema id goes to the dead-letter queue with the
 *   id in `sluice.error.schema.id`, and a registry that is down when the app
 *   starts and while it reads only delays it: every good record is written
 *   exactly once (read_committed), none lost;
 * - a global table read with a generic serde restores while the registry is
 *   down (the global task waits for it) and a stream joins it.
 * The same cases run against a real registry, Apicurio Registry through its
 * Confluent-compatible API, when the run has one (test/helpers/registry-env.ts;
 * CI starts it), except the two that take the registry down (only the
 * in-process one can be switched off): there the unknown id is checked alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import protobuf from 'protobufjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeadLetterHeaders, deadLetterQueueHandler } from '../../src/handlers/dead-letter-queue.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { SchemaRegistrySerdes } from '../../src/serdes/schema-registry/schema-registry-serdes.js';
import type { Serde } from '../../src/serdes/serde.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { InProcessSchemaRegistry } from '../../src/testing/schema-registry.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { schemaRegistryUrl } from '../helpers/registry-env.js';
import { backends, type BackendContext } from './backends.js';

const ORDER = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }] };
const TOTAL = { type: 'record', name: 'Total', namespace: 'shop', fields: [{ name: 'id', type: 'string' }, { name: 'items', type: 'int' }] };
const JSON_ORDER = { title: 'Order', type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' } }, required: ['id', 'qty'] };
const JSON_TOTAL = { title: 'Total', type: 'object', properties: { id: { type: 'string' }, items: { type: 'integer' } }, required: ['id', 'items'] };
const PROTO = 'syntax = "proto3";\npackage shop;\nmessage Order { string id = 1; int32 qty = 2; }\nmessage Total { string id = 1; int32 items = 2; }\n';

type Order = { id: string; qty: number };
type Total = { id: string; items: number };
const N = 20;
const orders = (prefix: string): Order[] => Array.from({ length: N }, (_, i) => ({ id: `${prefix}-${i}`, qty: i + 1 }));

async function produce(ctx: BackendContext, topic: string, values: Buffer[]): Promise<void> {
  const producer = ctx.cluster.producer({});
  await producer.connect();
  try {
    await producer.produce({ topic, partition: 0, records: values.map((value, i) => ({ key: Buffer.from(`k${i}`), value, headers: {}, timestamp: Date.now() })) });
  } finally {
    await producer.close();
  }
}

async function encodeAll<T>(serde: Serde<T>, topic: string, values: T[]): Promise<Buffer[]> {
  await serde.prepare?.(topic);
  return values.map((v) => defined(serde.serialize(topic, v)));
}

function defined<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value');
  return value;
}

/** A registry the cases run against: its URL, and a switch only the in-process one has. */
interface TestRegistry {
  readonly url: string;
  setAvailable?(available: boolean): void;
  close(): Promise<void>;
}

const realUrl = schemaRegistryUrl();
const registries: { name: string; start: () => Promise<TestRegistry> }[] = [
  { name: 'in-process registry', start: () => InProcessSchemaRegistry.start() },
  ...(realUrl ? [{ name: 'Apicurio Registry', start: async (): Promise<TestRegistry> => ({ url: realUrl, close: async () => {} }) }] : []),
];

for (const backend of await backends()) for (const kind of registries) {
  const title = `Schema Registry serdes contract: ${backend.name}, ${kind.name}`;
  const canGoDown = kind.name === 'in-process registry';
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    let registry: TestRegistry;
    let app: KafkaStreams | undefined;
    beforeEach(async () => {
      ctx = await backend.create();
      registry = await kind.start();
    });
    afterEach(async () => {
      await app?.close();
      app = undefined;
      await registry.close();
      await ctx.close();
    });

    it('round trip with Avro, JSON Schema and Protobuf: output bytes in the wire format, payload decoded with each library', async () => {
      const started = Date.now();
      const url = registry.url;
      const formats = [
        { name: 'avro', in: SchemaRegistrySerdes.avro<Order>({ url, schema: ORDER }), out: SchemaRegistrySerdes.avro<Total>({ url, schema: TOTAL }) },
        { name: 'json', in: SchemaRegistrySerdes.jsonSchema<Order>({ url, schema: JSON_ORDER }), out: SchemaRegistrySerdes.jsonSchema<Total>({ url, schema: JSON_TOTAL }) },
        { name: 'proto', in: SchemaRegistrySerdes.protobuf<Order>({ url, schema: PROTO, messageType: 'shop.Order' }), out: SchemaRegistrySerdes.protobuf<Total>({ url, schema: PROTO, messageType: 'shop.Total' }) },
      ].map((f) => ({ ...f, input: uniqueTopic(`sr-${f.name}-in-${backend.name}`), output: uniqueTopic(`sr-${f.name}-out-${backend.name}`) }));
      const builder = new StreamsBuilder();
      for (const f of formats) {
        await ctx.admin.createTopic(f.input, { partitions: 1, config: {} });
        await ctx.admin.createTopic(f.output, { partitions: 1, config: {} });
        // the producer side: serdes of their own (reading back needs the registry, not a shared cache)
        const writer = f.name === 'avro' ? SchemaRegistrySerdes.avro<Order>({ url, schema: ORDER }) : f.name === 'json' ? SchemaRegistrySerdes.jsonSchema<Order>({ url, schema: JSON_ORDER }) : SchemaRegistrySerdes.protobuf<Order>({ url, schema: PROTO, messageType: 'shop.Order' });
        await produce(ctx, f.input, await encodeAll(writer, f.input, orders(f.name)));
        builder
          .stream<string, Order>(f.input, { keySerde: Serdes.String(), valueSerde: f.in })
          .mapValues((o): Total => ({ id: o.id, items: o.qty * 10 }))
          .to(f.output, { keySerde: Serdes.String(), valueSerde: f.out });
      }
      const applicationId = uniqueGroup(`sr-${backend.name}`);
      app = new KafkaStreams(builder.build(), {
        cluster: await ctx.appCluster({ applicationId, inputTopics: formats.map((f) => f.input), outputTopics: formats.map((f) => f.output) }),
        ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, processingGuarantee: 'exactly_once_v2',
      });
      await app.start();

      const proto = protobuf.parse(PROTO, { keepCase: true }).root.lookupType('shop.Total');
      const avroTotal = avro.Type.forSchema(TOTAL as avro.Schema);
      for (const f of formats) {
        const out = await waitFor(async () => {
          const read = await ctx.read(f.output);
          return read.length >= N && read;
        }, { timeoutMs: ctx.patienceMs * 3, intervalMs: 100, message: `${N} ${f.name} outputs` });
        expect(out).toHaveLength(N);
        const latest = (await (await fetch(`${url}/subjects/${f.output}-value/versions/latest`)).json()) as { id: number; schemaType?: string };
        for (const [i, record] of out.entries()) {
          const bytes = defined(record.value);
          expect(bytes[0], 'magic byte').toBe(0);
          expect(bytes.readInt32BE(1), 'the output subject\'s schema id').toBe(latest.id);
          const payload = bytes.subarray(5);
          const want = { id: `${f.name}-${i}`, items: (i + 1) * 10 };
          if (f.name === 'avro') expect(avroTotal.fromBuffer(payload)).toEqual(want);
          if (f.name === 'json') expect(JSON.parse(payload.toString('utf8'))).toEqual(want);
          if (f.name === 'proto') {
            expect(payload[0], 'message indexes [1]: count 1, index 1 (zig-zag)').toBe(2);
            expect(payload[1]).toBe(2);
            expect(proto.toObject(proto.decode(payload.subarray(2)))).toEqual(want);
          }
          expect(f.out.deserialize(f.output, bytes)).toEqual(want);
        }
      }
      console.info(`[schema-registry ${backend.name}, ${kind.name}] 3 formats x ${N} records round trip, ${Date.now() - started} ms`);
    });

    it(`an unknown schema id is dead-lettered with the id in its headers${canGoDown ? '; a registry that is down loses nothing' : ''}`, async () => {
      const started = Date.now();
      const url = registry.url;
      const input = uniqueTopic(`sr-down-in-${backend.name}`);
      const output = uniqueTopic(`sr-down-out-${backend.name}`);
      const dlq = uniqueTopic(`sr-down-dlq-${backend.name}`);
      for (const name of [input, output, dlq]) await ctx.admin.createTopic(name, { partitions: 1, config: {} });
      const good = await encodeAll(SchemaRegistrySerdes.avro<Order>({ url, schema: ORDER }), input, orders('o'));
      const unknown = Buffer.concat([Buffer.from([0, 0, 0, 0x30, 0x39]), good[0]!.subarray(5)]); // schema id 12345
      await produce(ctx, input, [...good.slice(0, 10), unknown, ...good.slice(10)]);
      const builder = new StreamsBuilder();
      builder
        .stream<string, Order>(input, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro<Order>({ url }) })
        .mapValues((o): Total => ({ id: o.id, items: o.qty }))
        .to(output, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro<Total>({ url, schema: TOTAL }) });
      const applicationId = uniqueGroup(`sr-down-${backend.name}`);
      registry.setAvailable?.(false); // down before the app starts: its tasks cannot prepare, then cannot resolve
      app = new KafkaStreams(builder.build(), {
        cluster: await ctx.appCluster({ applicationId, inputTopics: [input], outputTopics: [output, dlq] }),
        ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, processingGuarantee: 'exactly_once_v2', taskRestartBackoffMs: 100,
        deserializationExceptionHandler: deadLetterQueueHandler({ topic: dlq, logLevel: 'silent' }),
      });
      await app.start();
      let restartsWhileDown = 0;
      if (canGoDown) {
        await new Promise((resolve) => setTimeout(resolve, 800));
        expect(await ctx.read(output, 'read_uncommitted'), 'nothing written while the registry is down').toEqual([]);
        restartsWhileDown = Object.values(app.metrics().tasks).reduce((sum, t) => sum + (t.restarts ?? 0), 0);
        registry.setAvailable?.(true);
      }
      const out = await waitFor(async () => {
        const read = await ctx.read(output);
        return read.length >= N && read;
      }, { timeoutMs: ctx.patienceMs * 3, intervalMs: 100, message: `${N} outputs after the registry came back` });
      const reader = SchemaRegistrySerdes.avro<Total>({ url });
      await Promise.all(out.map((r) => reader.resolve?.(output, r.value)));
      expect(out.map((r) => reader.deserialize(output, r.value))).toEqual(orders('o').map((o) => ({ id: o.id, items: o.qty })));
      const dead = await waitFor(async () => {
        const read = await ctx.read(dlq);
        return read.length >= 1 && read;
      }, { timeoutMs: ctx.patienceMs, intervalMs: 100, message: 'the dead letter' });
      expect(dead).toHaveLength(1);
      const header = (name: string): string => String(dead[0]!.headers[name]);
      expect(header(DeadLetterHeaders.ERROR_SCHEMA_ID)).toBe('12345');
      expect(header(DeadLetterHeaders.ERROR_STAGE)).toBe('deserialization');
      expect(header(DeadLetterHeaders.INPUT_OFFSET)).toBe('10');
      expect(dead[0]!.value).toEqual(unknown);
      expect(app.state).toBe('RUNNING');
      if (canGoDown) expect(restartsWhileDown, 'the tasks were retried while the registry was down').toBeGreaterThan(0);
      expect(await ctx.read(output, 'read_uncommitted'), 'no aborted duplicate').toHaveLength(N);
      console.info(`[schema-registry-down ${backend.name}, ${kind.name}] ${N} outputs, 1 dead letter, ${restartsWhileDown} task restarts while down, ${Date.now() - started} ms`);
    });

    if (canGoDown) it('a global table restores while the registry is down (waiting, not failing) and a stream joins it', async () => {
      const url = registry.url;
      const customers = uniqueTopic(`sr-global-c-${backend.name}`);
      const ordersTopic = uniqueTopic(`sr-global-o-${backend.name}`);
      const output = uniqueTopic(`sr-global-out-${backend.name}`);
      for (const name of [customers, ordersTopic, output]) await ctx.admin.createTopic(name, { partitions: 1, config: {} });
      const writer = SchemaRegistrySerdes.jsonSchema<{ name: string }>({ url, schema: { title: 'Customer', type: 'object', properties: { name: { type: 'string' } } } });
      await produce(ctx, customers, await encodeAll(writer, customers, [{ name: 'Ada' }, { name: 'Grace' }]));
      const builder = new StreamsBuilder();
      const table = builder.globalTable<string, { name: string }>(customers, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.jsonSchema({ url }) });
      builder
        .stream<string, string>(ordersTopic, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
        .join(table, (_id, customer) => customer, (customer, c) => `${customer}=${c.name}`)
        .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
      const applicationId = uniqueGroup(`sr-global-${backend.name}`);
      const dir = mkdtempSync(join(tmpdir(), 'sluice-sr-global-'));
      try {
        registry.setAvailable?.(false);
        app = new KafkaStreams(builder.build(), {
          cluster: await ctx.appCluster({ applicationId, inputTopics: [customers, ordersTopic], outputTopics: [output] }),
          ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, processingGuarantee: 'exactly_once_v2', stateDir: dir,
        });
        const starting = app.start();
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(app.state, 'waiting for the registry, not failed').not.toBe('ERROR');
        registry.setAvailable?.(true);
        await starting;
        await produce(ctx, ordersTopic, [Buffer.from('k0'), Buffer.from('k1')]); // keys k0, k1 are the customers' keys
        const out = await waitFor(async () => {
          const read = await ctx.read(output);
          return read.length >= 2 && read;
        }, { timeoutMs: ctx.patienceMs * 3, intervalMs: 100, message: 'two joined orders' });
        expect(out.map((r) => r.value?.toString())).toEqual(['k0=Ada', 'k1=Grace']);
        expect(app.state).toBe('RUNNING');
      } finally {
        await app?.close();
        app = undefined;
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('a sink whose topic is chosen per record: the first record of a new topic restarts the task once (retriable), nothing lost or doubled', async () => {
      const url = registry.url;
      const input = uniqueTopic(`sr-dyn-in-${backend.name}`);
      const outs = [uniqueTopic(`sr-dyn-a-${backend.name}`), uniqueTopic(`sr-dyn-b-${backend.name}`)];
      for (const name of [input, ...outs]) await ctx.admin.createTopic(name, { partitions: 1, config: {} });
      await produce(ctx, input, await encodeAll(SchemaRegistrySerdes.avro<Order>({ url, schema: ORDER }), input, orders('d')));
      const builder = new StreamsBuilder();
      builder
        .stream<string, Order>(input, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro<Order>({ url }) })
        .mapValues((o): Total => ({ id: o.id, items: o.qty }))
        .to((_k, v) => outs[v.items % 2]!, { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro<Total>({ url, schema: TOTAL }) });
      const applicationId = uniqueGroup(`sr-dyn-${backend.name}`);
      app = new KafkaStreams(builder.build(), {
        cluster: await ctx.appCluster({ applicationId, inputTopics: [input], outputTopics: outs }),
        ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, processingGuarantee: 'exactly_once_v2', taskRestartBackoffMs: 100,
      });
      await app.start();
      const written = await waitFor(async () => {
        const [a, b] = await Promise.all(outs.map((t) => ctx.read(t)));
        return a!.length + b!.length >= N && [a!, b!];
      }, { timeoutMs: ctx.patienceMs * 3, intervalMs: 100, message: `${N} outputs over two topics` });
      expect(written.map((w) => w.length)).toEqual([N / 2, N / 2]);
      const restarts = Object.values(app.metrics().tasks).reduce((sum, t) => sum + (t.restarts ?? 0), 0);
      expect(restarts, 'one restart per topic whose schema was not registered yet').toBeGreaterThanOrEqual(1);
      expect(restarts).toBeLessThanOrEqual(2);
      const reader = SchemaRegistrySerdes.avro<Total>({ url });
      const ids = [];
      for (const [i, w] of written.entries()) {
        for (const r of w) {
          await reader.resolve?.(outs[i]!, r.value);
          ids.push(reader.deserialize(outs[i]!, r.value).id);
        }
      }
      expect(ids.sort(), 'every order once (read_committed)').toEqual(orders('d').map((o) => o.id).sort());
      expect(app.state).toBe('RUNNING');
    });
  });
}
