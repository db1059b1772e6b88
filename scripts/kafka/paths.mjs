// Where the local Kafka broker keeps its files. Everything lives under the
// git-ignored `.kafka/` folder at the repository root, except the broker's
// data directory (a fresh temporary directory per start).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (two levels above this file). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Root of every cached jar and every run directory. Overridable with SLUICE_KAFKA_HOME. */
export const kafkaHome = process.env.SLUICE_KAFKA_HOME || join(repoRoot, '.kafka'); // empty counts as unset

/** The Maven project that names the broker's jars. */
export const pomFile = join(repoRoot, 'scripts', 'kafka', 'pom.xml');

/** The log4j2 configuration handed to the broker JVM. */
export const log4jConfigFile = join(repoRoot, 'scripts', 'kafka', 'log4j2.properties');

/** Folder holding the jars of one Kafka version. */
export function libsDir(version) {
  return join(kafkaHome, version, 'libs');
}

/** Marker written once every jar of a version was copied. */
export function libsMarker(version) {
  return join(libsDir(version), '.complete');
}

/** Per-port run directory: pid file, log file, server.properties, state.json. */
export function runDir(port) {
  return join(kafkaHome, 'run', String(port));
}
