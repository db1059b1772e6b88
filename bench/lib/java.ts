/** Builds bench/java (Maven) once per Kafka version and gives the classpath of its JVMs. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Kafka Streams / tools version used when the broker's version is unknown (bench/java/pom.xml default). */
export const DEFAULT_JAVA_KAFKA_VERSION = '4.4.0';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when `cmd` runs (`cmd -version` exits 0). */
function available(cmd: string, arg: string): boolean {
  const r = spawnSync(cmd, [arg], { stdio: 'ignore' });
  return r.status === 0;
}

/**
 * Runs `mvn -B -q package -Dkafka.version=<version>` in bench/java unless the jar
 * is newer than pom.xml and every source file.
 * @returns the classpath (`jar:lib/*`)
 * @throws when java or mvn is missing or the build fails
 */
export function buildJavaBench(benchDir: string, version: string, log: (line: string) => void): string {
  const dir = join(benchDir, 'java');
  const jar = join(dir, 'target', `sluice-bench-${version}.jar`);
  const lib = join(dir, 'target', `lib-${version}`);
  const sources = Math.max(statSync(join(dir, 'pom.xml')).mtimeMs, newestMtime(join(dir, 'src')));
  if (!available('java', '-version')) throw new Error('java not found (JDK 17+ needed for --compare)');
  if (!(existsSync(jar) && existsSync(lib) && statSync(jar).mtimeMs >= sources)) {
    if (!available('mvn', '-v')) throw new Error('mvn not found (Maven needed for --compare)');
    log(`building bench/java for Kafka ${version} (mvn -B -q package)`);
    const r = spawnSync('mvn', ['-B', '-q', 'package', `-Dkafka.version=${version}`], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mvn package failed (exit ${r.status}):\n${(r.stdout ?? '') + (r.stderr ?? '')}`);
  }
  return `${jar}:${lib}/*`;
}
