/**
 * Issue 34, acceptance: "records written by a Java producer with Confluent's wire format (built here
 * from the same schema and id) are read". Real Kafka: each schema is registered in the in-process
 * registry (sluice/testing) to get its id; Java's WireProducer (test/helpers/java-wire-producer.ts:
 * Avro's GenericDatumWriter, Jackson, protobuf-java with Confluent's message indexes) writes the
 * records with that id; a sluice app reads them with the generic `SchemaRegistrySerdes` (no schema
 * of its own: the writer's schema comes from the registry by id) and writes each value as JSON.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { SchemaRegistrySerdes } from '../../src/serdes/schema-registry/schema-registry-serdes.js';
import type { Serde } from '../../src/serdes/serde.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { InProcessSchemaRegistry } from '../../src/testing/schema-registry.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { javaWireProducerUnavailable, prepareJavaWireProducer, produceWithJava } from '../helpers/java-wire-producer.js';
import { createTopic, describeKafka, readAll, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';

const AVRO = JSON.stringify({
  type: 'record', name: 'Order', namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' }, { name: 'qty', type: 'int' }, { name: 'cents', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID'] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
  ],
});
const JSON_SCHEMA = JSON.stringify({ title: 'Order', type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['id', 'qty'] });
const PROTO = 'syntax = "proto3";\npackage shop;\nmessage Header { string source = 1; }\nmessage Order { string id = 1; int32 qty = 2; repeated string tags = 3; }\n';

const CASES = [
  {
    format: 'avro' as const, schemaType: 'AVRO', schema: AVRO, serde: (url: string) => SchemaRegistrySerdes.avro({ url }),
    values: [
      { id: 'o-1', qty: 3, cents: 1_234_567_890_123, note: 'gift “wrap”', status: 'PAID', tags: ['eu', 'fast'] },
      { id: 'o-2', qty: -64, cents: -1, note: null, status: 'NEW', tags: [] },
    ],
  },
  {
    format: 'json' as const, schemaType: 'JSON', schema: JSON_SCHEMA, serde: (url: string) => SchemaRegistrySerdes.jsonSchema({ url }),
    values: [{ id: 'o-1', qty: 3, tags: ['ü'] }, { id: 'o-2', qty: 7, tags: [] }],
  },
  {
    // the second message of the file: Java writes message indexes [1]
    format: 'protobuf' as const, schemaType: 'PROTOBUF', schema: PROTO, messageType: 'shop.Order',
    serde: (url: string) => SchemaRegistrySerdes.protobuf({ url, messageType: 'shop.Order' }),
    values: [{ id: 'o-1', qty: 3, tags: ['eu', 'fast'] }, { id: 'o-2', qty: -64, tags: [] }],
  },
];

const unavailable = javaWireProducerUnavailable();

describeKafka('records written by a Java producer in Confluent’s wire format are read by sluice (real Kafka)', (brokers) => {
  const suite = unavailable ? describe.skip : describe;
  suite(unavailable ? `[skipped: ${unavailable}]` : 'Avro, JSON Schema and Protobuf', () => {
    let registry: InProcessSchemaRegistry;
    beforeAll(async () => {
      registry = await InProcessSchemaRegistry.start();
      await prepareJavaWireProducer();
    }, 180_000);
    afterAll(async () => {
      await registry?.close();
    });

    it('each format: the app reads every Java-written value with the schema the registry gives its id', async () => {
      const builder = new StreamsBuilder();
      const topics = CASES.map((c) => ({ ...c, input: uniqueTopic(`java-wire-${c.format}`), output: uniqueTopic(`java-wire-${c.format}-out`) }));
      // 1-2 for the three formats at once (one JVM each)
      await Promise.all(topics.map(async (c) => {
        await createTopic(brokers, c.input);
        await createTopic(brokers, c.output);
        // 1. register the schema as a Java producer's serializer would (subject <topic>-value) and take its id
        const answer = await fetch(`${registry.url}/subjects/${c.input}-value/versions`, {
          method: 'POST', headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
          body: JSON.stringify({ schema: c.schema, schemaType: c.schemaType }),
        });
        const { id } = (await answer.json()) as { id: number };
        expect(id).toBeGreaterThan(0);
        // 2. Java writes the records with that id
        await produceWithJava({ brokers, topic: c.input, format: c.format, schemaId: id, schema: c.schema, messageType: c.messageType, records: c.values.map((value, i) => ({ key: `k${i}`, value, partition: 0 })) });
      }));
      // 3. sluice reads them back, generic: the writer's schema comes from the registry
      for (const c of topics) {
        builder
          .stream<string, unknown>(c.input, { keySerde: Serdes.String(), valueSerde: c.serde(registry.url) as Serde<unknown> })
          .mapValues((v) => JSON.stringify(v))
          .to(c.output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
      }
      const applicationId = uniqueGroup('java-wire-read');
      const app = new KafkaStreams(builder.build(), {
        applicationId, bootstrapServers: brokers, commitIntervalMs: 100, processingGuarantee: 'exactly_once_v2', logger: pino({ level: 'silent' }),
      });
      try {
        await app.start();
        for (const c of topics) {
          const out = await waitFor(async () => {
            const read = await readAll(brokers, c.output);
            return read.length >= c.values.length && read;
          }, { timeoutMs: 30_000, intervalMs: 200, message: `${c.values.length} ${c.format} records read` });
          expect(out.map((r) => JSON.parse(String(r.value))), `${c.format}: the values Java wrote`).toEqual(c.values);
        }
        expect(app.state).toBe('RUNNING');
      } finally {
        await app.close();
      }
    }, 120_000);
  });
});
