/**
 * Protobuf on `protobufjs`. Confluent's payload starts with the message
 * indexes (the path of the message type in its `.proto` file: top-level
 * index, then nested indexes), as zig-zag varints: the count, then each
 * index; the common `[0]` is the single byte 0. Values are plain objects
 * (field names as in the `.proto`, enums as names, 64-bit integers as
 * strings, defaults filled in); a protobufjs message instance is encoded as it is.
 */
import protobuf from 'protobufjs';
import type { ParsedSchema, ResolvedReference } from './schema-types.js';

const PARSE = { keepCase: true };
const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, defaults: true };

/** Writes `indexes` as Confluent's MessageIndexes do. */
export function writeMessageIndexes(indexes: readonly number[]): Buffer {
  if (indexes.length === 1 && indexes[0] === 0) return Buffer.from([0]);
  const bytes: number[] = [];
  writeZigZag(indexes.length, bytes);
  for (const index of indexes) writeZigZag(index, bytes);
  return Buffer.from(bytes);
}

/** Reads the message indexes at the start of `payload`: the indexes and where the message starts. */
export function readMessageIndexes(payload: Buffer): { indexes: number[]; offset: number } {
  const cursor = { offset: 0 };
  const count = readZigZag(payload, cursor);
  if (count === 0) return { indexes: [0], offset: cursor.offset };
  if (count < 0 || count > 100) throw new Error(`bad Protobuf message-index count ${count}`);
  const indexes: number[] = [];
  for (let i = 0; i < count; i++) indexes.push(readZigZag(payload, cursor));
  return { indexes, offset: cursor.offset };
}

function writeZigZag(value: number, out: number[]): void {
  let v = ((value << 1) ^ (value >> 31)) >>> 0;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

function readZigZag(buf: Buffer, cursor: { offset: number }): number {
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const byte = buf[cursor.offset++];
    if (byte === undefined) throw new Error('truncated Protobuf message indexes');
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return (result >>> 1) ^ -(result & 1);
  }
  throw new Error('Protobuf message-index varint longer than 5 bytes');
}

function messagesOf(ns: protobuf.NamespaceBase): protobuf.Type[] {
  return ns.nestedArray.filter((n): n is protobuf.Type => n instanceof protobuf.Type);
}

/** Full names (without the leading dot) of every message of the file, with their index paths. */
function messageIndexTable(text: string): { names: Map<string, number[]>; first: string | undefined } {
  const parsed = protobuf.parse(text, new protobuf.Root(), PARSE);
  const top = parsed.package ? parsed.root.lookup(parsed.package) : parsed.root;
  const names = new Map<string, number[]>();
  const walk = (ns: protobuf.NamespaceBase, path: number[]): void => {
    messagesOf(ns).forEach((type, i) => {
      const here = [...path, i];
      names.set(type.fullName.replace(/^\./, ''), here);
      walk(type, here);
    });
  };
  if (top instanceof protobuf.Namespace) walk(top, []);
  const first = names.keys().next();
  return { names, first: first.done ? undefined : first.value };
}

/** Parses a `.proto` text with its references (parsed into the same root, by import path). */
export function parseProtobuf(text: string, references: readonly ResolvedReference[], messageType?: string): ParsedSchema {
  const table = messageIndexTable(text);
  const root = new protobuf.Root();
  for (const ref of references) protobuf.parse(ref.schema.schema, root, PARSE);
  protobuf.parse(text, root, PARSE);
  root.resolveAll();
  const byPath = new Map<string, protobuf.Type>();
  for (const [name, path] of table.names) byPath.set(path.join('.'), root.lookupType(name));
  const name = messageType ?? table.first;
  const indexes = name === undefined ? undefined : table.names.get(name.replace(/^\./, ''));
  if (name === undefined || indexes === undefined) {
    throw new Error(`message type ${name ?? '(none)'} is not in the .proto; it has [${[...table.names.keys()].join(', ')}]`);
  }
  const own = root.lookupType(name);
  const prefix = writeMessageIndexes(indexes);
  return {
    type: 'PROTOBUF',
    recordName: own.fullName.replace(/^\./, ''),
    canonical: text.trim(),
    encode: (value) => {
      const message = value instanceof protobuf.Message ? value : own.fromObject(value as Record<string, unknown>);
      return Buffer.concat([prefix, own.encode(message).finish()]);
    },
    decode: (payload) => {
      const { indexes: path, offset } = readMessageIndexes(payload);
      const type = byPath.get(path.join('.'));
      if (type === undefined) throw new Error(`message indexes [${path.join(', ')}] name no message of the schema`);
      return type.toObject(type.decode(payload.subarray(offset)), TO_OBJECT);
    },
  };
}
