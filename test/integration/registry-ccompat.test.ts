/**
 * The real Schema Registry of the run (Apicurio Registry through its Confluent-compatible API,
 * started by test/setup/registry-setup.ts, or SCHEMA_REGISTRY_URL) answers the REST calls
 * sluice's Schema Registry serdes make, as Confluent's Schema Registry does: register (same schema,
 * same id, also under another subject), look a schema up by id, by subject + schema and as the latest version, schema
 * references, the schema types, and the errors (unknown id 40403, unknown subject 40401,
 * incompatible 409).
 */
import { expect, it } from 'vitest';
import { uniqueName } from '../helpers/names.js';
import { describeRegistry } from '../helpers/registry-env.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(url: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': CONTENT_TYPE },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const avro = (fields: unknown[], name = 'Order') => JSON.stringify({ type: 'record', name, namespace: 'shop', fields });
const ORDER_V1 = avro([{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }]);
const ORDER_V2 = avro([{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }, { name: 'note', type: ['null', 'string'], default: null }]);

describeRegistry('a real Schema Registry through the Confluent REST API', (url) => {
  it('registers a schema once per content and looks it up by id, by subject + schema and as the latest version', async () => {
    const subject = `${uniqueName('orders')}-value`;
    // 1. register, and again: the same id
    const first = await call(url, 'POST', `/subjects/${subject}/versions`, { schema: ORDER_V1 });
    expect(first.status).toBe(200);
    const id = first.body.id as number;
    expect(Number.isInteger(id)).toBe(true);
    expect((await call(url, 'POST', `/subjects/${subject}/versions`, { schema: ORDER_V1 })).body).toEqual({ id });
    // the same schema under another subject: the same id (ids name contents, as in Confluent's registry)
    expect((await call(url, 'POST', `/subjects/${uniqueName('orders-copy')}-value/versions`, { schema: ORDER_V1 })).body).toEqual({ id });
    // 2. by id: the schema text
    const byId = await call(url, 'GET', `/schemas/ids/${id}`);
    expect(byId.status).toBe(200);
    expect(JSON.parse(byId.body.schema as string)).toEqual(JSON.parse(ORDER_V1));
    // 3. by subject + schema, written differently (whitespace, key order): the same id and version
    const respaced = JSON.stringify(JSON.parse(ORDER_V1), null, 2).replace('"type": "record",\n  "name": "Order"', '"name": "Order",\n  "type": "record"');
    const lookup = await call(url, 'POST', `/subjects/${subject}`, { schema: respaced });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ id, subject, version: 1 });
    // 4. a second version: a new id; latest is version 2, version 1 stays
    const second = await call(url, 'POST', `/subjects/${subject}/versions`, { schema: ORDER_V2 });
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(id);
    expect((await call(url, 'GET', `/subjects/${subject}/versions/latest`)).body).toMatchObject({ id: second.body.id, subject, version: 2 });
    expect((await call(url, 'GET', `/subjects/${subject}/versions/1`)).body).toMatchObject({ id, subject, version: 1 });
  });

  it('keeps JSON Schema and Protobuf schemas with their schemaType', async () => {
    const json = JSON.stringify({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
    const proto = 'syntax = "proto3";\npackage shop;\n\nmessage Order {\n  string id = 1;\n  int32 qty = 2;\n}\n';
    const j = await call(url, 'POST', `/subjects/${uniqueName('json')}-value/versions`, { schemaType: 'JSON', schema: json });
    const p = await call(url, 'POST', `/subjects/${uniqueName('proto')}-value/versions`, { schemaType: 'PROTOBUF', schema: proto });
    expect([j.status, p.status]).toEqual([200, 200]);
    expect((await call(url, 'GET', `/schemas/ids/${j.body.id as number}`)).body).toMatchObject({ schemaType: 'JSON', schema: json });
    const protoBack = (await call(url, 'GET', `/schemas/ids/${p.body.id as number}`)).body;
    expect(protoBack.schemaType).toBe('PROTOBUF');
    expect(protoBack.schema).toContain('message Order');
  });

  it('resolves a schema that references another subject', async () => {
    const moneySubject = uniqueName('money');
    const money = avro([{ name: 'cents', type: 'long' }], 'Money');
    expect((await call(url, 'POST', `/subjects/${moneySubject}/versions`, { schema: money })).status).toBe(200);
    const subject = `${uniqueName('orders-ref')}-value`;
    const references = [{ name: 'shop.Money', subject: moneySubject, version: 1 }];
    const order = avro([{ name: 'total', type: 'shop.Money' }]);
    const registered = await call(url, 'POST', `/subjects/${subject}/versions`, { schema: order, references });
    expect(registered.status).toBe(200);
    expect((await call(url, 'GET', `/schemas/ids/${registered.body.id as number}`)).body).toMatchObject({ schema: order, references });
    expect((await call(url, 'GET', `/subjects/${subject}/versions/latest`)).body).toMatchObject({ id: registered.body.id, references });
  });

  it('answers Confluent’s error codes: unknown id 40403, unknown subject 40401, incompatible schema 409', async () => {
    const unknownId = await call(url, 'GET', '/schemas/ids/987654321');
    expect([unknownId.status, unknownId.body.error_code]).toEqual([404, 40403]);
    const unknownSubject = await call(url, 'GET', `/subjects/${uniqueName('nosuch')}/versions/latest`);
    expect([unknownSubject.status, unknownSubject.body.error_code]).toEqual([404, 40401]);
    // BACKWARD: a new version must read the old data; turning qty into a string cannot
    const subject = `${uniqueName('compat')}-value`;
    expect((await call(url, 'POST', `/subjects/${subject}/versions`, { schema: ORDER_V1 })).status).toBe(200);
    expect((await call(url, 'PUT', `/config/${subject}`, { compatibility: 'BACKWARD' })).body).toEqual({ compatibility: 'BACKWARD' });
    const incompatible = avro([{ name: 'id', type: 'string' }, { name: 'qty', type: 'string' }]);
    const refused = await call(url, 'POST', `/subjects/${subject}/versions`, { schema: incompatible });
    expect([refused.status, refused.body.error_code]).toEqual([409, 409]);
    expect((await call(url, 'POST', `/compatibility/subjects/${subject}/versions/latest`, { schema: incompatible })).body).toMatchObject({ is_compatible: false });
    expect((await call(url, 'POST', `/subjects/${subject}/versions`, { schema: ORDER_V2 })).status).toBe(200);
  });
});
