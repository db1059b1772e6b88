// Checks for the tools the local broker needs (Java 17+, Maven) with error
// messages that say what to install, or how to use an existing Kafka instead.
import { spawnSync } from 'node:child_process';

/** A local broker cannot be fetched or started; the message says what to do. */
export class KafkaSetupError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'KafkaSetupError';
  }
}

const INSTEAD =
  'Or point the tests at any running Kafka instead: KAFKA_BROKERS=host:9092 (comma-separated list).';

function run(cmd, args) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (res.error) return undefined;
  return `${res.stdout ?? ''}${res.stderr ?? ''}`;
}

/** The Java command to use: $JAVA_HOME/bin/java when JAVA_HOME is set, else `java` on the PATH. */
export function javaCommand() {
  return process.env.JAVA_HOME ? `${process.env.JAVA_HOME}/bin/java` : 'java';
}

/** Major Java version, e.g. 17; throws KafkaSetupError when Java is missing or older than 17. */
export function checkJava() {
  const out = run(javaCommand(), ['-version']);
  if (out === undefined) {
    throw new KafkaSetupError(
      `java not found (${javaCommand()}): the local Kafka broker needs a Java 17+ runtime ` +
        `(e.g. apt-get install openjdk-17-jre-headless). ${INSTEAD}`,
    );
  }
  const match = /version "(\d+)(?:\.(\d+))?/.exec(out);
  const major = match ? Number(match[1] === '1' ? match[2] : match[1]) : NaN;
  if (!(major >= 17)) {
    throw new KafkaSetupError(
      `Java 17 or newer is required for Kafka 4.x, found: ${out.split('\n')[0]}. ${INSTEAD}`,
    );
  }
  return major;
}

/** Throws KafkaSetupError when Maven (`mvn`) is missing. */
export function checkMaven() {
  const out = run('mvn', ['-v']);
  if (out === undefined) {
    throw new KafkaSetupError(
      'mvn not found: the first `npm run kafka:start` fetches the Kafka jars from Maven Central ' +
        `with Maven (e.g. apt-get install maven). ${INSTEAD}`,
    );
  }
}

/** True when both java (17+) and mvn are usable, or the jars are already cached (then mvn is not needed). */
export function localBrokerPossible(jarsCached) {
  try {
    checkJava();
    if (!jarsCached) checkMaven();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}
