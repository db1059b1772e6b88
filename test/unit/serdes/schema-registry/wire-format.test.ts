/**
 * Schema Registry serdes on `mock://` registries (no I/O): the Confluent wire
 * bytes (magic 0, 4-byte big-endian id, payload; Protobuf message indexes)
 * checked by decoding the payload with avsc / protobufjs / JSON directly,
 * subject name strategies, auto-registration, use.latest.version,
 * references, Avro schema resolution and the record-level errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import avro from 'avsc';
import protobuf from 'protobufjs';
import { ConfigError, SchemaRegistryError, SchemaRegistrySerdes } from '../../../../src/index.js';
import { mockScope } from '../../../../src/serdes/internal/schema-registry/registry-client.js';
import { readMessageIndexes, writeMessageIndexes } from '../../../../src/serdes/internal/schema-registry/protobuf-format.js';

const ORDER_V1 = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }] };
const ORDER_V2 = { ...ORDER_V1, fields: [...ORDER_V1.fields, { name: 'note', type: 'string', default: 'none' }] };
const ORDER_BAD = { ...ORDER_V1, fields: [...ORDER_V1.fields, { name: 'must', type: 'string' }] };

const PROTO = `syntax = "proto3";
package shop;
message Ping { int32 n = 1; }
message Order {
  string id = 1;
  int64 qty = 2;
  Status status = 3;
  message Line { string sku = 1; int32 count = 2; }
  repeated Line lines = 4;
}
enum Status { NEW = 0; PAID = 1; }
`;

const JSON_SCHEMA = { title: 'Order', type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' } }, required: ['id', 'qty'], additionalProperties: false };

let scopes: string[] = [];
let n = 0;
function scope(): string {
  const name = `wire-${process.pid}-${n++}`;
  scopes.push(name);
  return `mock://${name}`;
}
afterEach(() => {
  for (const s of scopes) SchemaRegistrySerdes.dropMockScope(s);
  scopes = [];
});

function header(bytes: Buffer): { magic: number; id: number; payload: Buffer } {
  return { magic: bytes[0]!, id: bytes.readInt32BE(1), payload: bytes.subarray(5) };
}

function thrown(f: () => unknown): SchemaRegistryError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaRegistryError);
    return error as SchemaRegistryError;
  }
  throw new Error('expected a throw');
}

describe('Avro serde (mock://)', () => {
  it('writes magic 0, the 4-byte big-endian id and the avsc encoding; reads it back', () => {
    const url = scope();
    const serde = SchemaRegistrySerdes.avro<{ id: string; qty: number }>({ url, schema: ORDER_V1 });
    const bytes = serde.serialize('orders', { id: 'o-1', qty: 3 })!;
    const { magic, id, payload } = header(bytes);
    expect(magic).toBe(0);
    expect(id).toBe(1);
    expect(bytes.subarray(1, 5)).toEqual(Buffer.from([0, 0, 0, 1]));
    expect(avro.Type.forSchema(ORDER_V1 as avro.Schema).fromBuffer(payload)).toEqual({ id: 'o-1', qty: 3 });
    expect(payload).toEqual(Buffer.from([0x06, 0x6f, 0x2d, 0x31, 0x06]));
    expect(serde.deserialize('orders', bytes)).toEqual({ id: 'o-1', qty: 3 });
    expect(mockScope(url.slice(7)).subjects()).toEqual(['orders-value']);
    expect(serde.serialize('orders', null)).toBeNull();
    expect(serde.deserialize('orders', null)).toBeNull();
  });

  it('keys go to <topic>-key; the same schema under two subjects keeps one id', () => {
    const url = scope();
    const key = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1, isKey: true });
    const value = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1 });
    const k = key.serialize('t', { id: 'a', qty: 1 })!;
    const v = value.serialize('t', { id: 'a', qty: 1 })!;
    expect(mockScope(url.slice(7)).subjects()).toEqual(['t-key', 't-value']);
    expect(k.readInt32BE(1)).toBe(v.readInt32BE(1));
  });

  it('subject name strategies: record and topic-record use the record full name', () => {
    const url = scope();
    SchemaRegistrySerdes.avro({ url, schema: ORDER_V1, subjectNameStrategy: 'record' }).serialize('a', { id: 'x', qty: 1 });
    SchemaRegistrySerdes.avro({ url, schema: ORDER_V1, subjectNameStrategy: 'topic-record' }).serialize('b', { id: 'x', qty: 1 });
    SchemaRegistrySerdes.jsonSchema({ url, schema: JSON_SCHEMA, subjectNameStrategy: 'topic-record' }).serialize('c', { id: 'x', qty: 1 });
    expect(mockScope(url.slice(7)).subjects()).toEqual(['b-shop.Order', 'c-Order', 'shop.Order']);
    // A Protobuf message also named shop.Order: same subject, another schema type, refused (409) as Confluent does
    const proto = SchemaRegistrySerdes.protobuf({ url, schema: PROTO, messageType: 'shop.Order', subjectNameStrategy: 'record' });
    expect(thrown(() => proto.serialize('d', { id: 'x' }))).toMatchObject({ code: 'SCHEMA_INCOMPATIBLE', kind: 'record' });
    expect(mockScope(url.slice(7)).versions('shop.Order')).toEqual([1]);
  });

  it('reads an older writer schema into the configured reader schema (Avro resolution, default filled in)', () => {
    const url = scope();
    const v1 = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1 }).serialize('orders', { id: 'a', qty: 2 })!;
    const reader = SchemaRegistrySerdes.avro<{ id: string; qty: number; note: string }>({ url, schema: ORDER_V2 });
    expect(reader.deserialize('orders', v1)).toEqual({ id: 'a', qty: 2, note: 'none' });
    const v2 = reader.serialize('orders', { id: 'b', qty: 1, note: 'x' })!;
    expect(v2.readInt32BE(1)).toBe(2);
    expect(mockScope(url.slice(7)).versions('orders-value')).toEqual([1, 2]);
  });

  it('a schema the registry refuses as incompatible (BACKWARD) is a record-level SCHEMA_INCOMPATIBLE error', () => {
    const url = scope();
    SchemaRegistrySerdes.avro({ url, schema: ORDER_V1 }).serialize('orders', { id: 'a', qty: 2 });
    const bad = SchemaRegistrySerdes.avro({ url, schema: ORDER_BAD });
    const error = thrown(() => bad.serialize('orders', { id: 'a', qty: 2, must: 'x' }));
    expect(error.code).toBe('SCHEMA_INCOMPATIBLE');
    expect(error.kind).toBe('record');
    expect(error.registryErrorCode).toBe(409);
    expect(error.message).toMatch(/incompatible/);
  });

  it('autoRegisterSchemas false looks the schema up: unregistered is SCHEMA_NOT_FOUND; registered works', () => {
    const url = scope();
    const lookup = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1, autoRegisterSchemas: false });
    const error = thrown(() => lookup.serialize('orders', { id: 'a', qty: 1 }));
    expect(error.code).toBe('SCHEMA_NOT_FOUND');
    expect(error.registryErrorCode).toBe(40401);
    mockScope(url.slice(7)).register('other', { schema: JSON.stringify(ORDER_V1), schemaType: 'AVRO', references: [] });
    mockScope(url.slice(7)).register('orders2-value', { schema: JSON.stringify(ORDER_V1), schemaType: 'AVRO', references: [] });
    const found = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1, autoRegisterSchemas: false });
    expect(found.serialize('orders2', { id: 'a', qty: 1 })!.readInt32BE(1)).toBe(1);
  });

  it('useLatestVersion writes with the subject\'s latest version, without a schema of its own', () => {
    const url = scope();
    const store = mockScope(url.slice(7));
    store.register('orders-value', { schema: JSON.stringify(ORDER_V1), schemaType: 'AVRO', references: [] });
    store.register('orders-value', { schema: JSON.stringify(ORDER_V2), schemaType: 'AVRO', references: [] });
    const latest = SchemaRegistrySerdes.avro({ url, useLatestVersion: true });
    const bytes = latest.serialize('orders', { id: 'z', qty: 9, note: 'n' })!;
    expect(bytes.readInt32BE(1)).toBe(2);
    expect(avro.Type.forSchema(ORDER_V2 as avro.Schema).fromBuffer(bytes.subarray(5))).toEqual({ id: 'z', qty: 9, note: 'n' });
  });

  it('references: a record using a named type registered under another subject', () => {
    const url = scope();
    const store = mockScope(url.slice(7));
    const money = { type: 'record', name: 'Money', namespace: 'shop', fields: [{ name: 'cents', type: 'long' }] };
    store.register('money', { schema: JSON.stringify(money), schemaType: 'AVRO', references: [] });
    const priced = { type: 'record', name: 'Priced', namespace: 'shop', fields: [{ name: 'price', type: 'shop.Money' }] };
    const serde = SchemaRegistrySerdes.avro({ url, schema: priced, references: [{ name: 'shop.Money', subject: 'money', version: 1 }] });
    const bytes = serde.serialize('p', { price: { cents: 250 } })!;
    expect(bytes.readInt32BE(1)).toBe(2);
    expect(store.schemaById(2).references).toEqual([{ name: 'shop.Money', subject: 'money', version: 1 }]);
    const generic = SchemaRegistrySerdes.avro({ url });
    expect(generic.deserialize('p', bytes)).toEqual({ price: { cents: 250 } });
  });

  it('unknown id, bad magic byte, a payload not matching its schema, a value not matching: record-level, with the schema id', () => {
    const url = scope();
    const serde = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1 });
    const unknown = thrown(() => serde.deserialize('t', Buffer.from([0, 0, 0, 0, 42, 1, 2])));
    expect(unknown).toMatchObject({ code: 'SCHEMA_NOT_FOUND', kind: 'record', schemaId: 42, registryErrorCode: 40403, origin: 'VALUE' });
    const magic = thrown(() => serde.deserialize('t', Buffer.from('{"id":"a"}')));
    expect(magic.code).toBe('SERIALIZATION');
    expect(magic.message).toMatch(/Unknown magic byte/);
    const good = serde.serialize('t', { id: 'a', qty: 1 })!;
    const truncated = thrown(() => serde.deserialize('t', good.subarray(0, 6)));
    expect(truncated).toMatchObject({ code: 'SERIALIZATION', schemaId: 1 });
    const wrong = thrown(() => serde.serialize('t', { id: 7 } as never));
    expect(wrong).toMatchObject({ code: 'SERIALIZATION', schemaId: 1, kind: 'record' });
  });
});

describe('Protobuf serde (mock://)', () => {
  it('message indexes: [0] is the single byte 0, others zig-zag varints (count, then each index)', () => {
    expect(writeMessageIndexes([0])).toEqual(Buffer.from([0]));
    expect(writeMessageIndexes([1])).toEqual(Buffer.from([2, 2]));
    expect(writeMessageIndexes([1, 0])).toEqual(Buffer.from([4, 2, 0]));
    expect(writeMessageIndexes([70])).toEqual(Buffer.from([2, 0x8c, 0x01]));
    for (const indexes of [[0], [1], [1, 0], [3, 2, 1], [70, 200]]) {
      const bytes = Buffer.concat([writeMessageIndexes(indexes), Buffer.from([0x08, 0x01])]);
      const read = readMessageIndexes(bytes);
      expect(read.indexes).toEqual(indexes);
      expect(bytes.subarray(read.offset)).toEqual(Buffer.from([0x08, 0x01]));
    }
  });

  it('writes the header, the indexes of the message type and the protobufjs encoding; reads every message of the file', () => {
    const url = scope();
    const orders = SchemaRegistrySerdes.protobuf({ url, schema: PROTO, messageType: 'shop.Order' });
    const value = { id: 'o-1', qty: '12', status: 'PAID', lines: [{ sku: 's', count: 2 }] };
    const bytes = orders.serialize('orders', value)!;
    expect(bytes[0]).toBe(0);
    expect(bytes.readInt32BE(1)).toBe(1);
    expect(bytes.subarray(5, 7)).toEqual(Buffer.from([2, 2])); // Order is the second top-level message: [1]
    const root = protobuf.parse(PROTO, { keepCase: true }).root;
    const type = root.lookupType('shop.Order');
    const decoded = type.toObject(type.decode(bytes.subarray(7)), { longs: String, enums: String });
    expect(decoded).toEqual(value);
    expect(orders.deserialize('orders', bytes)).toEqual(value);

    const nested = SchemaRegistrySerdes.protobuf({ url, schema: PROTO, messageType: 'shop.Order.Line' });
    const line = nested.serialize('lines', { sku: 'a', count: 1 })!;
    expect(line.subarray(5, 8)).toEqual(Buffer.from([4, 2, 0])); // [1, 0]
    expect(orders.deserialize('lines', line)).toEqual({ sku: 'a', count: 1 });

    const ping = SchemaRegistrySerdes.protobuf({ url, schema: PROTO }); // default: the first message, [0]
    const p = ping.serialize('pings', { n: 5 })!;
    expect(p.subarray(5)).toEqual(Buffer.from([0, 0x08, 0x05]));
    expect(ping.deserialize('pings', p)).toEqual({ n: 5 });
  });

  it('an unknown message type is a ConfigError-free SCHEMA_INVALID naming the types', () => {
    const url = scope();
    const serde = SchemaRegistrySerdes.protobuf({ url, schema: PROTO, messageType: 'shop.Nope' });
    const error = thrown(() => serde.serialize('t', {}));
    expect(error.code).toBe('SCHEMA_INVALID');
    expect(error.message).toMatch(/shop\.Nope.*shop\.Ping/);
  });
});

describe('JSON Schema serde (mock://)', () => {
  it('writes the header and the value as UTF-8 JSON; validates on write and on read', () => {
    const url = scope();
    const serde = SchemaRegistrySerdes.jsonSchema({ url, schema: JSON_SCHEMA });
    const bytes = serde.serialize('orders', { id: 'a', qty: 2 })!;
    expect(bytes[0]).toBe(0);
    expect(bytes.readInt32BE(1)).toBe(1);
    expect(JSON.parse(bytes.subarray(5).toString('utf8'))).toEqual({ id: 'a', qty: 2 });
    expect(serde.deserialize('orders', bytes)).toEqual({ id: 'a', qty: 2 });
    expect(thrown(() => serde.serialize('orders', { id: 'a' })).message).toMatch(/qty/);
    const forged = Buffer.concat([bytes.subarray(0, 5), Buffer.from('{"id":1,"qty":2}')]);
    expect(thrown(() => serde.deserialize('orders', forged))).toMatchObject({ code: 'SERIALIZATION', schemaId: 1 });
  });

  it('an id of another format is a record-level error naming both', () => {
    const url = scope();
    const avroBytes = SchemaRegistrySerdes.avro({ url, schema: ORDER_V1 }).serialize('t', { id: 'a', qty: 1 })!;
    const error = thrown(() => SchemaRegistrySerdes.jsonSchema({ url }).deserialize('t', avroBytes));
    expect(error.message).toMatch(/AVRO schema.*reads JSON/);
  });
});

describe('configuration', () => {
  it('a bad url, strategy or schema is a ConfigError naming the key; credentials in the url are never shown', () => {
    expect(() => SchemaRegistrySerdes.avro({ url: 'ftp://user:s3cret@host' })).toThrow(ConfigError);
    try {
      SchemaRegistrySerdes.avro({ url: 'ftp://user:s3cret@host' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
      expect((error as Error).message).toMatch(/url/);
    }
    expect(() => SchemaRegistrySerdes.avro({ url: 'mock://x', subjectNameStrategy: 'nope' as never })).toThrow(/subjectNameStrategy/);
    expect(() => SchemaRegistrySerdes.protobuf({ url: 'mock://x', schema: {} })).toThrow(/\.proto/);
    expect(() => SchemaRegistrySerdes.avro({ url: 'mock://x', schema: 'not json' })).toThrow(/schema/);
  });

  it('a serializer without a schema (and no useLatestVersion) says to set one', () => {
    const url = scope();
    expect(thrown(() => SchemaRegistrySerdes.avro({ url }).serialize('t', { a: 1 })).message).toMatch(/needs a schema.*useLatestVersion/);
  });
});

describe('references of JSON Schema and Protobuf (mock://)', () => {
  it('a JSON Schema $ref to a referenced schema and a .proto importing another are registered with their references and read back', () => {
    const url = scope();
    const store = mockScope(url.slice(7));
    const address = { $id: 'address.json', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    store.register('address', { schema: JSON.stringify(address), schemaType: 'JSON', references: [] });
    const person = { title: 'Person', type: 'object', properties: { home: { $ref: 'address.json' } }, required: ['home'] };
    const json = SchemaRegistrySerdes.jsonSchema({ url, schema: person, references: [{ name: 'address.json', subject: 'address', version: 1 }] });
    const bytes = json.serialize('people', { home: { city: 'Oslo' } })!;
    expect(store.schemaById(bytes.readInt32BE(1)).references).toEqual([{ name: 'address.json', subject: 'address', version: 1 }]);
    expect(SchemaRegistrySerdes.jsonSchema({ url }).deserialize('people', bytes)).toEqual({ home: { city: 'Oslo' } });
    expect(thrown(() => json.serialize('people', { home: { town: 'x' } })).message).toMatch(/city/);

    store.register('money.proto', { schema: 'syntax = "proto3";\npackage shop;\nmessage Money { int64 cents = 1; }\n', schemaType: 'PROTOBUF', references: [] });
    const priced = 'syntax = "proto3";\npackage shop;\nimport "money.proto";\nmessage Priced { string sku = 1; Money price = 2; }\n';
    const proto = SchemaRegistrySerdes.protobuf({ url, schema: priced, references: [{ name: 'money.proto', subject: 'money.proto', version: 1 }] });
    const pb = proto.serialize('prices', { sku: 's', price: { cents: '250' } })!;
    expect(pb.subarray(5, 6)).toEqual(Buffer.from([0])); // Priced is the first message of its own file, whatever money.proto holds
    expect(SchemaRegistrySerdes.protobuf({ url }).deserialize('prices', pb)).toEqual({ sku: 's', price: { cents: '250' } });
  });
});

