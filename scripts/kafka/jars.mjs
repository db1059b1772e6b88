// Fetches the jars of one Apache Kafka release from Maven Central with Maven,
// once: a marker file records a complete copy and later calls download nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { libsDir, libsMarker, pomFile } from './paths.mjs';
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
  const output = [];
  const code = await new Promise((resolve, reject) => {
    const child = spawn('mvn', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('error', reject);
    child.on('close', resolve);
  });
  const jars = readdirSync(dir).filter((f) => f.endsWith('.jar'));
  if (code !== 0 || !jars.some((f) => f.startsWith(`kafka_2.13-${version}`))) {
    const tail = Buffer.concat(output)
      .toString('utf8')
      // eslint-disable-next-line no-control-regex -- strip ANSI colours
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((l) => /^\[ERROR\] \S/.test(l) && !/re-run|For more information|^\[ERROR\] \[Help/i.test(l))
      .slice(0, 5)
      .join('\n');
    rmSync(dirname(dir), { recursive: true, force: true });
    throw new KafkaSetupError(
      `mvn could not fetch org.apache.kafka:kafka_2.13:${version} (exit ${code}). ` +
        `Is the version published on Maven Central and the network reachable?\n${tail}`,
    );
  }
  writeFileSync(libsMarker(version), `${new Date().toISOString()} ${jars.length} jars\n`);
  return { dir, downloaded: true };
}
