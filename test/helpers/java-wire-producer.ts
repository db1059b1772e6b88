/**
 * `produceWithJava`: records in Confluent's Schema Registry wire format (magic byte 0, the 4-byte
 * big-endian schema id, the Avro / JSON / Protobuf payload) written to a real broker by a Java
 * program (scripts/java/wire-producer/WireProducer.java on Kafka's own kafka-clients, Avro's
 * GenericDatumWriter and protobuf-java's DynamicMessage), built from the schema and id given here,
 * as Confluent's KafkaAvroSerializer / KafkaJsonSchemaSerializer / KafkaProtobufSerializer write them.
 *
 * The first call of a process fetches the program's jars (once per machine, Maven) and compiles it
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
 * Produces `records` with the Java program and resolves, in input order, with where each landed and
 * the value bytes Java sent. Throws with the program's standard error when it fails.
 */
export async function produceWithJava(options: JavaWireProducerOptions): Promise<JavaWrittenRecord[]> {
  // 1. Jars and classes (once per process; once per machine on disk).
  const { java, classPath } = await prepareJavaWireProducer();
  // 2. The schema in a file (any text survives), the records on standard input.
  const dir = mkdtempSync(join(tmpdir(), 'sluice-wire-'));
  const schemaFile = join(dir, 'schema');
  writeFileSync(schemaFile, options.schema);
  const args = ['-Xmx128m', '-XX:TieredStopAtLevel=1', '-cp', classPath, 'WireProducer', options.brokers.join(','), options.topic, options.format, String(options.schemaId), schemaFile];
  if (options.messageType) args.push(options.messageType);
  const input = options.records.map((r) => JSON.stringify({ key: r.key ?? null, value: r.value, partition: r.partition ?? null, messageType: r.messageType ?? null })).join('\n');
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = execFile(java, args, { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 }, (err, out, errOut) => {
        if (err) reject(new Error(`WireProducer failed (${err.message.split('\n')[0]}):\n${errOut.split('\n').filter((l) => !/^\s+at /.test(l)).slice(0, 12).join('\n')}`));
        else resolve(out);
      });
      child.stdin?.end(`${input}\n`);
    });
    // 3. "WROTE <partition> <offset> <hex>" per record, then "PRODUCED <topic> <count>".
    const lines = stdout.split('\n').filter(Boolean);
    const done = lines.find((l) => l.startsWith('PRODUCED '));
    if (done !== `PRODUCED ${options.topic} ${options.records.length}`) throw new Error(`WireProducer did not report ${options.records.length} records:\n${stdout}`);
    return lines
      .filter((l) => l.startsWith('WROTE '))
      .map((l) => {
        const [, partition, offset, hex] = l.split(' ');
        return { partition: Number(partition), offset: offset!, value: Buffer.from(hex!, 'hex') };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
