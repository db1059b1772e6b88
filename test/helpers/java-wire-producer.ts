/**
 * `produceWithJava`: records in Confluent's Schema Registry wire format (magic byte 0, the 4-byte
 * big-endian schema id, the Avro / JSON / Protobuf payload) written to a real broker by a Java
 * program (scripts/java/wire-producer/WireProducer.java on Kafka's own kafka-clients, Avro's
 * GenericDatumWriter and protobuf-java's DynamicMessage), built from the schema and id given here,
 * as Confluent's KafkaAvroSerializer / KafkaJsonSchemaSerializer / KafkaProtobufSerializer write them;
 * and `decodeWithJava`: the other way, wire-format values (e.g. written by sluice) read with the Java
 * libraries Confluent's deserializers use (WireDecoder.java).
 *
 * The first call of a process fetches the programs' jars (once per machine, Maven) and compiles them
 * (once per source version); each call then runs one JVM (~1-3 s).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWireProducer } from '../../scripts/java/wire-producer/build.mjs';
import { kafkaVersion } from '../../scripts/kafka/broker.mjs';
import { checkJava } from '../../scripts/kafka/prereq.mjs';

/** One record for {@link produceWithJava}. */
export interface JavaWireRecord {
  /** The key, written with Kafka's StringSerializer (`null`/absent: no key). */
  key?: string | null;
  /**
   * The value as plain JSON. Avro: mapped onto the schema (records as objects, a union takes the first
   * branch the value fits, bytes/fixed as ISO-8859-1 strings); JSON Schema: written as Jackson writes
   * it; Protobuf: an object keyed by field name, 64-bit integers as numbers or strings, bytes as base64,
   * enums by name or number, maps as objects.
   */
  value: unknown;
  /** Target partition (default: the producer's partitioner). */
  partition?: number;
  /**
   * Protobuf: this record's message (default the options' `messageType`). One .proto file has one
   * schema id whatever the message; the message indexes tell which.
   */
  messageType?: string;
}

/** Options of {@link produceWithJava}. */
export interface JavaWireProducerOptions {
  brokers: string[];
  topic: string;
  format: 'avro' | 'json' | 'protobuf';
  /** The id written after the magic byte. */
  schemaId: number;
  /** The schema text: Avro schema JSON, JSON Schema, or a .proto file. */
  schema: string;
  /** Protobuf: the message to write (full name or name within the package; default the file's first). */
  messageType?: string;
  records: JavaWireRecord[];
}

/** Where a record landed and the exact value bytes Java produced. */
export interface JavaWrittenRecord {
  partition: number;
  offset: string;
  value: Buffer;
}

/** Why the Java producer cannot run here (no Java 17+), or `undefined` when it can. */
export function javaWireProducerUnavailable(): string | undefined {
  try {
    checkJava();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

let runnable: ReturnType<typeof ensureWireProducer> | undefined;

/** Fetches the jars and compiles the program now (once per process), so that parallel calls do not each wait for it. */
export async function prepareJavaWireProducer(): Promise<{ java: string; classPath: string }> {
  runnable ??= ensureWireProducer(kafkaVersion(), { log: (line) => process.stderr.write(`${line}\n`) });
  return runnable.catch((err: unknown) => {
    runnable = undefined;
    throw err;
  });
}

/**
 * Runs one of the Java programs (`WireProducer`, `WireDecoder`) with the schema in a file (any text
 * survives) and `input` on standard input; resolves with its standard output. Throws with its
 * standard error (stack frames left out) when it fails.
 */
async function runJava(main: 'WireProducer' | 'WireDecoder', schema: string, argsBefore: string[], argsAfter: string[], input: string): Promise<string> {
  const { java, classPath } = await prepareJavaWireProducer();
  const dir = mkdtempSync(join(tmpdir(), 'sluice-wire-'));
  const schemaFile = join(dir, 'schema');
  writeFileSync(schemaFile, schema);
  const args = ['-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', classPath, main, ...argsBefore, schemaFile, ...argsAfter];
  try {
    return await new Promise<string>((resolve, reject) => {
      const child = execFile(java, args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (err, out, errOut) => {
        if (err) reject(new Error(`${main} failed (${err.message.split('\n')[0]}):\n${errOut.split('\n').filter((l) => !/^\s+at /.test(l)).slice(0, 12).join('\n')}`));
        else resolve(out);
      });
      child.stdin?.end(`${input}\n`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Produces `records` with the Java program and resolves, in input order, with where each landed and
 * the value bytes Java sent. Throws with the program's standard error when it fails.
 */
export async function produceWithJava(options: JavaWireProducerOptions): Promise<JavaWrittenRecord[]> {
  // 1. The records on standard input, one JSON line each (jars and classes: once per process / machine).
  const input = options.records.map((r) => JSON.stringify({ key: r.key ?? null, value: r.value, partition: r.partition ?? null, messageType: r.messageType ?? null })).join('\n');
  const stdout = await runJava('WireProducer', options.schema, [options.brokers.join(','), options.topic, options.format, String(options.schemaId)], options.messageType ? [options.messageType] : [], input);
  // 2. "WROTE <partition> <offset> <hex>" per record, then "PRODUCED <topic> <count>".
  const lines = stdout.split('\n').filter(Boolean);
  const done = lines.find((l) => l.startsWith('PRODUCED '));
  if (done !== `PRODUCED ${options.topic} ${options.records.length}`) throw new Error(`WireProducer did not report ${options.records.length} records:\n${stdout}`);
  return lines
    .filter((l) => l.startsWith('WROTE '))
    .map((l) => {
      const [, partition, offset, hex] = l.split(' ');
      return { partition: Number(partition), offset: offset!, value: Buffer.from(hex!, 'hex') };
    });
}

/** What Java read from one value: its schema id, (Protobuf) the message indexes and type, and the value as JSON; or why it could not. */
export type JavaDecoded =
  | { id: number; indexes?: number[]; type?: string; value: unknown; error?: undefined }
  | { error: string; id?: undefined; value?: undefined };

/**
 * Reads wire-format values (e.g. written by sluice's serdes) with the Java libraries Confluent's
 * deserializers use (scripts/java/wire-producer/WireDecoder.java): Avro's GenericDatumReader
 * (values as GenericData renders them as JSON), Jackson, protobuf-java (the message at the
 * Confluent message indexes, rendered by JsonFormat with proto field names: 64-bit integers as
 * strings, enums by name, default values left out). One JVM per call; results in input order.
 */
export async function decodeWithJava(options: { format: 'avro' | 'json' | 'protobuf'; schema: string; values: Buffer[] }): Promise<JavaDecoded[]> {
  const stdout = await runJava('WireDecoder', options.schema, [options.format], [], options.values.map((v) => v.toString('hex')).join('\n'));
  const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
  if (lines.length !== options.values.length) throw new Error(`WireDecoder answered ${lines.length} lines for ${options.values.length} values:\n${stdout}`);
  return lines.map((l) => JSON.parse(l) as JavaDecoded);
}
