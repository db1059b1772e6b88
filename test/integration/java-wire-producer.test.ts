/**
 * Records in Confluent's Schema Registry wire format written by a Java producer (issue 34,
 * acceptance: "records written by a Java producer with Confluent's wire format (built here from the
 * same schema and id) are read"), real broker: scripts/java/wire-producer/WireProducer.java on
 * Kafka's kafka-clients writes Avro (Avro's GenericDatumWriter), JSON Schema (Jackson) and Protobuf
 * (protobuf-java DynamicMessage, Confluent's message indexes) values. Every byte read back from the
 * broker is checked with the format libraries directly (avsc, protobufjs, JSON.parse): magic byte 0,
 * the 4-byte big-endian id, the message indexes, the payload, and that the payload is exactly what
 * the JavaScript library encodes for the same value. And the other way: values the JavaScript
 * libraries write in the wire format are read by Java's (WireDecoder.java).
 */
import avro from 'avsc';
import protobuf from 'protobufjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeWithJava, javaWireProducerUnavailable, prepareJavaWireProducer, produceWithJava, type JavaWireRecord, type JavaWrittenRecord } from '../helpers/java-wire-producer.js';
import { createTopic, describeKafka, readAll, uniqueTopic, type ReadRecord } from '../helpers/index.js';

const AVRO_SCHEMA = JSON.stringify({
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'qty', type: 'int' },
    { name: 'cents', type: 'long' },
    { name: 'price', type: 'double' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID', 'SHIPPED'] } },
    { name: 'attrs', type: { type: 'map', values: 'int' } },
    { name: 'customer', type: { type: 'record', name: 'Customer', fields: [{ name: 'name', type: 'string' }, { name: 'vip', type: 'boolean' }] } },
  ],
});
const AVRO_VALUES = [
  { id: 'o-1', qty: 3, cents: 1_234_567_890_123, price: 19.99, note: 'gift wrap, “please”', tags: ['eu', 'fast'], status: 'PAID', attrs: { a: 1, b: -2 }, customer: { name: 'Zoë', vip: true } },
  { id: 'o-2', qty: -64, cents: -1, price: 0, note: null, tags: [], status: 'NEW', attrs: {}, customer: { name: '', vip: false } },
  { id: 'o-3', qty: 2_147_483_647, cents: 0, price: -1.5e300, note: '', tags: ['x'], status: 'SHIPPED', attrs: { z: 2_147_483_647 }, customer: { name: '日本', vip: true } },
];

const JSON_SCHEMA = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Order',
  type: 'object',
  properties: { id: { type: 'string' }, qty: { type: 'integer' }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id', 'qty'],
});
const JSON_VALUES = [
  { id: 'o-1', qty: 3, price: 19.99, tags: ['eu'], nested: { ok: true, none: null } },
  { id: 'o-2 – ünïcode', qty: -7 },
];

// Fields declared in field-number order, so protobuf-java and protobufjs write them in the same order.
const PROTO_SCHEMA = `syntax = "proto3";
package shop;

message Header {
  string source = 1;
}

message Order {
  string id = 1;
  int32 qty = 2;
  int64 cents = 3;
  double price = 4;
  repeated string tags = 5;
  Status status = 6;
  Header header = 7;
  repeated Line lines = 8;
  repeated int32 sizes = 9;
  bytes blob = 10;

  message Line {
    string sku = 1;
    uint32 count = 2;
  }
}

enum Status {
  NEW = 0;
  PAID = 1;
}
`;
const ORDER_VALUES = [
  { id: 'o-1', qty: 3, cents: '9007199254740993', price: 19.99, tags: ['eu', 'fast'], status: 'PAID', header: { source: 'web' }, lines: [{ sku: 'a', count: 2 }], sizes: [1, -1, 300], blob: Buffer.from([0, 1, 255]).toString('base64') },
  { id: 'o-2', qty: -64, cents: '-5', price: 0.5, tags: [], status: 'NEW', lines: [], sizes: [] },
];
const IDS = { avro: 4_242, json: 70_000, protobuf: 16_777_217 };

/** Magic byte 0, then the schema id as 4 bytes big-endian; the rest of the value. */
function unframe(value: Buffer, id: number): Buffer {
  expect(value[0]).toBe(0);
  expect(value.readInt32BE(1)).toBe(id);
  expect([...value.subarray(1, 5)]).toEqual([(id >>> 24) & 0xff, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff]);
  return value.subarray(5);
}

/** Confluent's message indexes (zig-zag varints: count, then each index; a lone 0 means [0]); returns them and the rest. */
function messageIndexes(payload: Buffer): { indexes: number[]; rest: Buffer } {
  let pos = 0;
  const varint = () => {
    let shift = 0;
    let raw = 0;
    for (;;) {
      const b = payload[pos++]!;
      raw |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
    }
    return (raw >>> 1) ^ -(raw & 1);
  };
  const count = varint();
  const indexes = count === 0 ? [0] : Array.from({ length: count }, varint);
  return { indexes, rest: payload.subarray(pos) };
}

const produced = new Map<string, { written: JavaWrittenRecord[]; read: ReadRecord[] }>();
const unavailable = javaWireProducerUnavailable();

describeKafka('records in Confluent’s wire format written by a Java producer (real Kafka)', (brokers) => {
  const suite = unavailable ? describe.skip : describe;
  suite(unavailable ? `[skipped: ${unavailable}]` : 'Avro, JSON Schema and Protobuf', () => {
    // One topic and one JVM per format, all at once (~5-10 s on a busy machine; the first run on a machine also fetches ~13 MB of jars).
    beforeAll(async () => {
      const cases: Array<{ format: 'avro' | 'json' | 'protobuf'; schema: string; schemaId: number; records: JavaWireRecord[] }> = [
        { format: 'avro', schema: AVRO_SCHEMA, schemaId: IDS.avro, records: AVRO_VALUES.map((value, i) => ({ key: `k-${i}`, value })) },
        { format: 'json', schema: JSON_SCHEMA, schemaId: IDS.json, records: JSON_VALUES.map((value, i) => ({ key: i === 0 ? null : `k-${i}`, value })) },
        {
          format: 'protobuf',
          schema: PROTO_SCHEMA,
          schemaId: IDS.protobuf, // one id for the file; the message indexes tell the message
          records: [
            { key: 'h', value: { source: 'first message' } }, // no messageType: the file's first message
            ...ORDER_VALUES.map((value, i) => ({ key: `k-${i}`, value, messageType: 'Order' })),
            { key: 'l', value: { sku: 'nested', count: 4_000_000_000 }, messageType: 'shop.Order.Line' },
          ],
        },
      ];
      const began = Date.now();
      await prepareJavaWireProducer(); // fetch + compile once, not three times at once
      const ready = Date.now();
      await Promise.all(cases.map(async (c) => {
        const topic = await createTopic(brokers, uniqueTopic(`wire-java-${c.format}`));
        const written = await produceWithJava({ brokers, topic, ...c });
        produced.set(c.format, { written, read: await readAll(brokers, topic) });
      }));
      process.stderr.write(`[wire-producer] jars + classes ${ready - began} ms, 3 Java producers + reads ${Date.now() - ready} ms\n`);
    }, 120_000);

    /** The values read from the broker, in offset order; each equal to the bytes Java reported. */
    function valuesOf(name: string, count: number): Buffer[] {
      const { written, read } = produced.get(name)!;
      expect(written.length).toBe(count);
      expect(read.length).toBe(count);
      read.sort((a, b) => a.offset - b.offset);
      read.forEach((r, i) => expect(r.value!.equals(written[i]!.value)).toBe(true));
      return read.map((r) => r.value!);
    }

    it('Avro: magic 0, the id, then exactly the Avro binary avsc writes for the same value; avsc reads every field back', () => {
      const type = avro.Type.forSchema(JSON.parse(AVRO_SCHEMA) as avro.Schema);
      const values = valuesOf('avro', AVRO_VALUES.length);
      values.forEach((value, i) => {
        const payload = unframe(value, IDS.avro);
        expect(payload.equals(type.toBuffer(AVRO_VALUES[i]))).toBe(true);
        expect({ ...type.fromBuffer(payload) }).toEqual(AVRO_VALUES[i]);
      });
      expect(produced.get('avro')!.read.map((r) => r.key?.toString())).toEqual(['k-0', 'k-1', 'k-2']);
    });

    it('JSON Schema: magic 0, the id, then the value as compact JSON (UTF-8)', () => {
      const values = valuesOf('json', JSON_VALUES.length);
      values.forEach((value, i) => {
        const payload = unframe(value, IDS.json);
        expect(JSON.parse(payload.toString('utf8'))).toEqual(JSON_VALUES[i]);
        expect(payload.equals(Buffer.from(JSON.stringify(JSON_VALUES[i]), 'utf8'))).toBe(true);
      });
      expect(produced.get('json')!.read.map((r) => r.key)).toEqual([null, Buffer.from('k-1')]);
    });

    it('Protobuf: magic 0, the id, Confluent’s message indexes ([0] as one 0 byte, [1], [1, 0]), then the message protobufjs writes and reads', () => {
      const root = protobuf.parse(PROTO_SCHEMA).root;
      const toObject = { longs: String, enums: String, bytes: String, defaults: false };
      const [header, ...rest] = valuesOf('protobuf', 1 + ORDER_VALUES.length + 1);
      // 1. the file's first message: indexes [0], written as the single byte 0
      const headerPayload = unframe(header!, IDS.protobuf);
      expect(headerPayload[0]).toBe(0);
      const Header = root.lookupType('shop.Header');
      expect(Header.toObject(Header.decode(messageIndexes(headerPayload).rest), toObject)).toEqual({ source: 'first message' });
      // 2. the second top-level message: indexes [1] (bytes 02 02)
      const Order = root.lookupType('shop.Order');
      rest.slice(0, ORDER_VALUES.length).forEach((value, i) => {
        const payload = unframe(value, IDS.protobuf);
        expect([...payload.subarray(0, 2)]).toEqual([2, 2]);
        const { indexes, rest: message } = messageIndexes(payload);
        expect(indexes).toEqual([1]);
        const expected = Order.encode(Order.fromObject(ORDER_VALUES[i]!)).finish();
        expect(Buffer.from(expected).equals(message)).toBe(true);
        const decoded = Order.toObject(Order.decode(message), toObject);
        const want = Object.fromEntries(Object.entries(ORDER_VALUES[i]!).filter(([, v]) => !(Array.isArray(v) && v.length === 0) && v !== 'NEW'));
        expect(decoded).toEqual(want);
      });
      // 3. a nested message: indexes [1, 0] (bytes 04 02 00); uint32 above 2^31 intact
      const linePayload = unframe(rest[ORDER_VALUES.length]!, IDS.protobuf);
      expect([...linePayload.subarray(0, 3)]).toEqual([4, 2, 0]);
      const Line = root.lookupType('shop.Order.Line');
      expect(Line.toObject(Line.decode(messageIndexes(linePayload).rest), toObject)).toEqual({ sku: 'nested', count: 4_000_000_000 });
      expect(produced.get('protobuf')!.read.map((r) => r.key?.toString())).toEqual(['h', 'k-0', 'k-1', 'l']);
    });

    it('the other way: Java’s readers (WireDecoder: Avro GenericDatumReader, Jackson, protobuf-java at the message indexes) read what avsc, JSON.stringify and protobufjs write in the wire format', async () => {
      const frame = (id: number, ...parts: Uint8Array[]) => Buffer.concat([Buffer.from([0]), Buffer.from([id >>> 24, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff]), ...parts]);
      const type = avro.Type.forSchema(JSON.parse(AVRO_SCHEMA) as avro.Schema);
      const root = protobuf.parse(PROTO_SCHEMA).root;
      const Order = root.lookupType('shop.Order');
      const Line = root.lookupType('shop.Order.Line');
      const [avroRead, jsonRead, protoRead] = await Promise.all([
        decodeWithJava({ format: 'avro', schema: AVRO_SCHEMA, values: AVRO_VALUES.map((v) => frame(IDS.avro, type.toBuffer(v))) }),
        decodeWithJava({ format: 'json', schema: JSON_SCHEMA, values: JSON_VALUES.map((v) => frame(IDS.json, Buffer.from(JSON.stringify(v)))) }),
        decodeWithJava({
          format: 'protobuf',
          schema: PROTO_SCHEMA,
          values: [
            frame(IDS.protobuf, Buffer.from([2, 2]), Order.encode(Order.fromObject(ORDER_VALUES[0]!)).finish()),
            frame(IDS.protobuf, Buffer.from([4, 2, 0]), Line.encode(Line.fromObject({ sku: 'nested', count: 4_000_000_000 })).finish()),
            frame(IDS.protobuf, Buffer.from([4, 2, 0]), Buffer.from([0xff])), // a truncated message: an error, not a value
          ],
        }),
      ]);
      expect(avroRead).toEqual(AVRO_VALUES.map((value) => ({ id: IDS.avro, value })));
      expect(jsonRead).toEqual(JSON_VALUES.map((value) => ({ id: IDS.json, value })));
      expect(protoRead[0]).toEqual({ id: IDS.protobuf, indexes: [1], type: 'shop.Order', value: ORDER_VALUES[0] });
      expect(protoRead[1]).toEqual({ id: IDS.protobuf, indexes: [1, 0], type: 'shop.Order.Line', value: { sku: 'nested', count: 4_000_000_000 } });
      expect(protoRead[2]!.error).toMatch(/InvalidProtocolBufferException/);
    });
  });
});
