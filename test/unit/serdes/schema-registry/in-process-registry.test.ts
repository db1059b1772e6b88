/**
 * `InProcessSchemaRegistry` (sluice/testing): the Confluent REST subset with
 * Confluent's error codes, hostile input (oversized and malformed bodies,
 * bad paths), and the HTTP serdes against it: a promise from `resolve` only
 * for an unknown id, the retriable errors of a registry that is down, and
 * basic auth that never reaches an error message.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaRegistryError, SchemaRegistrySerdes } from '../../../../src/index.js';
import { InProcessSchemaRegistry } from '../../../../src/testing.js';

const ORDER = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'string' }] };
const ORDER_BAD = { ...ORDER, fields: [{ name: 'id', type: 'int' }] };

let registry: InProcessSchemaRegistry;
beforeAll(async () => {
  registry = await InProcessSchemaRegistry.start();
});
afterAll(async () => {
  await registry.close();
});

async function call(method: string, path: string, body?: unknown, raw?: string): Promise<{ status: number; json: Record<string, unknown> & { error_code?: number } }> {
  const res = await fetch(`${registry.url}${path}`, {
    method,
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('InProcessSchemaRegistry REST', () => {
  it('binds 127.0.0.1 on a free port', () => {
    expect(registry.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('registers, finds by id, by version and latest, looks up; same schema same id; Confluent error codes', async () => {
    const reg = await call('POST', '/subjects/rest-a-value/versions', { schema: JSON.stringify(ORDER) });
    expect(reg).toEqual({ status: 200, json: { id: expect.any(Number) } });
    const id = reg.json.id as number;
    expect((await call('POST', '/subjects/rest-a-value/versions', { schema: JSON.stringify(ORDER) })).json).toEqual({ id });
    expect((await call('GET', `/schemas/ids/${id}`)).json).toEqual({ schema: JSON.stringify(ORDER) });
    expect((await call('GET', '/subjects/rest-a-value/versions/latest')).json).toMatchObject({ subject: 'rest-a-value', id, version: 1 });
    expect((await call('GET', '/subjects/rest-a-value/versions/1')).json).toMatchObject({ id, version: 1 });
    expect((await call('GET', '/subjects/rest-a-value/versions')).json).toEqual([1]);
    expect((await call('POST', '/subjects/rest-a-value', { schema: JSON.stringify(ORDER) })).json).toMatchObject({ subject: 'rest-a-value', id, version: 1 });
    // 40401 subject, 40402 version, 40403 schema
    expect(await call('GET', '/subjects/nope/versions/latest')).toMatchObject({ status: 404, json: { error_code: 40401 } });
    expect(await call('GET', '/subjects/rest-a-value/versions/7')).toMatchObject({ status: 404, json: { error_code: 40402 } });
    expect(await call('GET', '/schemas/ids/9999')).toMatchObject({ status: 404, json: { error_code: 40403 } });
    expect(await call('POST', '/subjects/rest-a-value', { schema: JSON.stringify(ORDER_BAD) })).toMatchObject({ status: 404, json: { error_code: 40403 } });
    // 409 incompatible (BACKWARD), 42201 invalid schema, 42202 invalid version
    const refused = await call('POST', '/subjects/rest-a-value/versions', { schema: JSON.stringify(ORDER_BAD) });
    expect(refused).toMatchObject({ status: 409, json: { error_code: 409 } });
    expect(String(refused.json.message)).toMatch(/incompatible/);
    expect(await call('POST', '/subjects/rest-b/versions', { schema: '{"type":"record"}' })).toMatchObject({ status: 422, json: { error_code: 42201 } });
    expect(await call('POST', '/subjects/rest-b/versions', { schema: 'syntax = nonsense', schemaType: 'PROTOBUF' })).toMatchObject({ status: 422, json: { error_code: 42201 } });
    expect(await call('POST', '/subjects/rest-b/versions', { schema: '{}', schemaType: 'XML' })).toMatchObject({ status: 422, json: { error_code: 42201 } });
    expect(await call('GET', '/subjects/rest-a-value/versions/abc')).toMatchObject({ status: 422, json: { error_code: 42202 } });
    // NONE: the incompatible schema becomes version 2
    expect((await call('PUT', '/config', { compatibility: 'NONE' })).status).toBe(200);
    expect((await call('POST', '/subjects/rest-a-value/versions', { schema: JSON.stringify(ORDER_BAD) })).status).toBe(200);
    expect((await call('PUT', '/config', { compatibility: 'BACKWARD' })).json).toEqual({ compatibility: 'BACKWARD' });
    expect((await call('GET', '/subjects/rest-a-value/versions')).json).toEqual([1, 2]);
  });

  it('hostile input: oversized body 413, malformed JSON 400, malformed path 400, unknown routes 404/405; the server keeps serving', async () => {
    const huge = await fetch(`${registry.url}/subjects/x/versions`, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) }).then(
      (r) => r.status,
      () => 'reset',
    );
    expect([413, 'reset']).toContain(huge);
    expect(await call('POST', '/subjects/x/versions', undefined, '{not json')).toMatchObject({ status: 400, json: { error_code: 400 } });
    expect(await call('GET', '/subjects/%E0%A4%A/versions/1')).toMatchObject({ status: 400 });
    expect(await call('GET', '/../../etc/passwd')).toMatchObject({ status: 404 });
    expect(await call('DELETE', '/subjects/x')).toMatchObject({ status: 405 });
    expect(await call('POST', '/subjects/x/versions', { schema: 42 })).toMatchObject({ status: 422, json: { error_code: 42201 } });
    expect(await call('POST', '/subjects/x/versions', { schema: '"string"', references: [{ name: 1 }] })).toMatchObject({ status: 422 });
    expect((await call('GET', '/subjects')).status).toBe(200);
  });
});

describe('HTTP serdes against the in-process registry', () => {
  it('resolve returns a promise only for an unknown id; deserialize before it is the retriable SCHEMA_NOT_RESOLVED', async () => {
    const writer = SchemaRegistrySerdes.avro<{ id: string }>({ url: registry.url, schema: ORDER });
    await writer.prepare!('serde-a');
    expect(writer.prepare!('serde-a')).toBeUndefined(); // cached: no promise
    const bytes = writer.serialize('serde-a', { id: 'x' })!;
    const reader = SchemaRegistrySerdes.avro({ url: registry.url });
    let error: unknown;
    try {
      reader.deserialize('serde-a', bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaRegistryError);
    expect(error).toMatchObject({ code: 'SCHEMA_NOT_RESOLVED', kind: 'retriable' });
    const fresh = SchemaRegistrySerdes.avro({ url: registry.url });
    const wait = fresh.resolve!('serde-a', bytes);
    expect(wait).toBeInstanceOf(Promise);
    await wait;
    expect(fresh.resolve!('serde-a', bytes)).toBeUndefined();
    expect(fresh.deserialize('serde-a', bytes)).toEqual({ id: 'x' });
    // an unknown id resolves (no throw) and then reads as the record-level SCHEMA_NOT_FOUND with its id
    const unknown = Buffer.from([0, 0, 0, 0x7f, 0, 2, 0x41]);
    await fresh.resolve!('serde-a', unknown);
    expect(() => fresh.deserialize('serde-a', unknown)).toThrow(expect.objectContaining({ code: 'SCHEMA_NOT_FOUND', schemaId: 0x7f00, kind: 'record' }));
  });

  it('serialize before prepare starts it and throws the retriable SCHEMA_NOT_RESOLVED; then writes', async () => {
    const writer = SchemaRegistrySerdes.avro({ url: registry.url, schema: ORDER });
    expect(() => writer.serialize('serde-b', { id: 'y' })).toThrow(expect.objectContaining({ code: 'SCHEMA_NOT_RESOLVED', kind: 'retriable' }));
    await writer.prepare!('serde-b');
    expect(writer.serialize('serde-b', { id: 'y' })!.readInt32BE(1)).toBeGreaterThan(0);
  });

  it('a registry that is down (503, or nothing listening) is retriable and not cached: it works once the registry is back', async () => {
    const writer = SchemaRegistrySerdes.avro({ url: registry.url, schema: ORDER });
    const bytes = (await writer.prepare!('serde-c'), writer.serialize('serde-c', { id: 'z' })!);
    const reader = SchemaRegistrySerdes.avro({ url: registry.url });
    registry.setAvailable(false);
    try {
      await expect(reader.resolve!('serde-c', bytes)).rejects.toMatchObject({ code: 'SCHEMA_REGISTRY_UNAVAILABLE', kind: 'retriable' });
      await expect(SchemaRegistrySerdes.avro({ url: registry.url, schema: ORDER }).prepare!('serde-d')).rejects.toMatchObject({ code: 'SCHEMA_REGISTRY_UNAVAILABLE' });
    } finally {
      registry.setAvailable(true);
    }
    await reader.resolve!('serde-c', bytes);
    expect(reader.deserialize('serde-c', bytes)).toEqual({ id: 'z' });
    const closed = SchemaRegistrySerdes.avro({ url: 'http://127.0.0.1:1' });
    await expect(closed.resolve!('t', bytes)).rejects.toMatchObject({ code: 'SCHEMA_REGISTRY_UNAVAILABLE', kind: 'retriable' });
  });

  it('basic auth is sent as an Authorization header; the password never appears in an error', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error_code: 40101, message: 'Unauthorized' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      for (const config of [{ url: `http://127.0.0.1:${port}`, auth: { username: 'app', password: 'pa55-secret' } }, { url: `http://app:pa55-secret@127.0.0.1:${port}` }]) {
        const serde = SchemaRegistrySerdes.avro({ ...config, schema: ORDER });
        const error = await Promise.resolve(serde.prepare!('t')).then(
          () => undefined,
          (e: unknown) => e as SchemaRegistryError,
        );
        expect(error).toMatchObject({ code: 'SCHEMA_REGISTRY_REFUSED', kind: 'fatal', registryErrorCode: 40101 });
        expect(JSON.stringify({ m: error?.message, s: error?.stack })).not.toContain('pa55-secret');
      }
      expect(seen.map((h) => h.authorization)).toEqual([`Basic ${Buffer.from('app:pa55-secret').toString('base64')}`, `Basic ${Buffer.from('app:pa55-secret').toString('base64')}`]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
