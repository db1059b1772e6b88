// Fetches the jars of one Apache Kafka release from Maven Central with Maven,
// once: a marker file records a complete copy and later calls download nothing.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { libsDir, libsMarker, pomFile } from './paths.mjs';
import { mavenErrors, runCaptured } from './maven.mjs';
import { checkMaven, KafkaSetupError } from './prereq.mjs';

/** True when the jars of `version` are already cached. */
export function jarsCached(version) {
  return existsSync(libsMarker(version));
}

/**
 * Ensures `.kafka/<version>/libs` holds every runtime jar of org.apache.kafka:kafka_2.13:<version>.
 * Runs `mvn -B dependency:copy-dependencies` only when the marker file is absent.
 * @returns {{ dir: string, downloaded: boolean }}
 */
export async function ensureKafkaJars(version, { log = console.error } = {}) {
  const dir = libsDir(version);
  if (jarsCached(version)) return { dir, downloaded: false };
  checkMaven();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`[kafka] fetching Apache Kafka ${version} jars from Maven Central into ${dir} (first time only)`);
  const args = [
    '-B',
    '-q',
    '-U', // re-check artifacts a previous (e.g. offline) attempt recorded as missing
    '-Dstyle.color=never',
    '-f',
    pomFile,
    `-Dkafka.version=${version}`,
    'dependency:copy-dependencies',
    `-DoutputDirectory=${dir}`,
    '-DincludeScope=runtime',
  ];
  const { code, output } = await runCaptured('mvn', args);
  const jars = readdirSync(dir).filter((f) => f.endsWith('.jar'));
  if (code !== 0 || !jars.some((f) => f.startsWith(`kafka_2.13-${version}`))) {
    const tail = mavenErrors(output);
    rmSync(dirname(dir), { recursive: true, force: true });
    throw new KafkaSetupError(
      `mvn could not fetch org.apache.kafka:kafka_2.13:${version} (exit ${code}). ` +
        `Is the version published on Maven Central and the network reachable?\n${tail}`,
    );
  }
  writeFileSync(libsMarker(version), `${new Date().toISOString()} ${jars.length} jars\n`);
  return { dir, downloaded: true };
}
