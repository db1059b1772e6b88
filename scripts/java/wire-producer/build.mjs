// Makes scripts/java/wire-producer/WireProducer.java (and WireDecoder.java) runnable, once per machine:
// 1. the jars of ./pom.xml (Avro, protobuf-java, Apicurio's .proto parser) fetched by Maven into
//    <SLUICE_KAFKA_HOME or .kafka>/wire-producer/<hash of pom.xml>/libs, a marker file recording a
//    complete copy (later calls download nothing);
// 2. WireProducer.java and WireDecoder.java compiled with javac into .../classes-<hash of the sources>
//    (the source launcher would compile them again on every run);
// 3. the class path: those classes, those jars, then the Kafka broker's libs (kafka-clients, Jackson).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaHome, libsDir } from '../../kafka/paths.mjs';
import { mavenErrors, runCaptured } from '../../kafka/maven.mjs';
import { checkJava, checkMaven, javaCommand, KafkaSetupError } from '../../kafka/prereq.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** The Maven project naming the jars. */
export const wirePomFile = join(here, 'pom.xml');
/** The programs: WireProducer (writes) and WireDecoder (reads), compiled together. */
export const wireProducerSource = join(here, 'WireProducer.java');
export const wireDecoderSource = join(here, 'WireDecoder.java');
const sources = [wireProducerSource, wireDecoderSource];

const hash = (...files) => {
  const h = createHash('sha256');
  for (const file of files) h.update(readFileSync(file));
  return h.digest('hex').slice(0, 12);
};

/** Folder of this pom's jars (its name changes with pom.xml, so an edited pom fetches again). */
export function wireLibsDir() {
  return join(kafkaHome, 'wire-producer', hash(wirePomFile), 'libs');
}

/** True when the jars are cached. */
export function wireJarsCached() {
  return existsSync(join(wireLibsDir(), '.complete'));
}

/** Step 1. */
async function ensureJars(log) {
  const dir = wireLibsDir();
  if (wireJarsCached()) return false;
  checkMaven();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`[wire-producer] fetching Avro, protobuf-java and the .proto parser from Maven Central into ${dir} (first time only)`);
  const { code, output } = await runCaptured('mvn', [
    '-B', '-q', '-U', '-Dstyle.color=never', '-f', wirePomFile,
    'dependency:copy-dependencies', `-DoutputDirectory=${dir}`, '-DincludeScope=runtime',
  ]);
  const jars = readdirSync(dir).filter((f) => f.endsWith('.jar'));
  if (code !== 0 || !jars.some((f) => f.startsWith('avro-')) || !jars.some((f) => f.startsWith('protobuf-java-'))) {
    const errors = mavenErrors(output);
    rmSync(dir, { recursive: true, force: true });
    throw new KafkaSetupError(`mvn could not fetch the jars of ${wirePomFile} (exit ${code}). Is Maven Central reachable?\n${errors}`);
  }
  writeFileSync(join(dir, '.complete'), `${new Date().toISOString()} ${jars.length} jars\n`);
  return true;
}

/** Step 2: compiled into a temporary folder, then renamed into place (two processes may race). */
async function ensureClasses(classPath, log) {
  const dir = join(dirname(wireLibsDir()), `classes-${hash(...sources)}`);
  if (existsSync(join(dir, 'WireProducer.class')) && existsSync(join(dir, 'WireDecoder.class'))) return { dir, compiled: false };
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const javac = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'javac') : 'javac';
  log(`[wire-producer] compiling ${sources.join(' ')}`);
  const { code, output } = await runCaptured(javac, ['-nowarn', '-cp', classPath, '-d', tmp, ...sources]);
  if (code !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new KafkaSetupError(`javac could not compile ${sources.join(' ')} (exit ${code}):\n${output.slice(0, 2000)}`);
  }
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another process won the race: its classes are the same
  }
  return { dir, compiled: true };
}

/**
 * Steps 1 to 3 of the header. `kafkaVersion`: the Kafka whose libs (already fetched by the broker
 * setup) provide kafka-clients and Jackson.
 * @returns {Promise<{ java: string, classPath: string, downloaded: boolean, compiled: boolean }>}
 */
export async function ensureWireProducer(kafkaVersion, { log = console.error } = {}) {
  checkJava();
  const kafkaLibs = libsDir(kafkaVersion);
  if (!existsSync(kafkaLibs)) {
    throw new KafkaSetupError(`the Kafka ${kafkaVersion} jars are not in ${kafkaLibs}: run \`npm run kafka:start\` once (it fetches them)`);
  }
  const downloaded = await ensureJars(log);
  const jars = [`${wireLibsDir()}/*`, `${kafkaLibs}/*`].join(delimiter);
  const { dir, compiled } = await ensureClasses(jars, log);
  return { java: javaCommand(), classPath: [dir, jars].join(delimiter), downloaded, compiled };
}
