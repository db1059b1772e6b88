// A local Apicurio Registry (https://www.apicur.io/registry/) speaking Confluent's Schema Registry
// REST API at /apis/ccompat/v7, for tests and development. Java 17, in-memory storage (H2 in
// memory: every start is empty), no authentication, 127.0.0.1 only.
//
// Files: the distribution in <SLUICE_KAFKA_HOME or .kafka>/apicurio/<version>/ (fetched once by
// Maven, scripts/registry/pom.xml); per port a run directory <...>/registry-run/<port>/ with
// state.json and registry.log.
/* global fetch, AbortSignal -- Node 20 globals */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kafkaHome } from '../kafka/paths.mjs';
import { mavenErrors, runCaptured } from '../kafka/maven.mjs';
import { checkJava, checkMaven, javaCommand, KafkaSetupError } from '../kafka/prereq.mjs';
import { isAlive, portFree, sleep, terminate } from '../kafka/process.mjs';

/** Apicurio Registry 2.6.x: the newest line that runs on Java 17 (3.x is compiled for Java 21). */
export const DEFAULT_APICURIO_VERSION = '2.6.13.Final';
/** Default port of `apicurio.mjs start` (Confluent's Schema Registry port). */
export const DEFAULT_REGISTRY_PORT = 8081;

const pomFile = join(dirname(fileURLToPath(import.meta.url)), 'pom.xml');

/** The version to run: the argument, else APICURIO_VERSION, else the default. */
export function apicurioVersion(version) {
  return version || process.env.APICURIO_VERSION || DEFAULT_APICURIO_VERSION;
}

/** The port: the argument, else SCHEMA_REGISTRY_PORT, else 8081. */
export function registryPort(port) {
  return Number(port || process.env.SCHEMA_REGISTRY_PORT || DEFAULT_REGISTRY_PORT);
}

/** The Confluent-compatible base URL of a registry on this port. */
export function ccompatUrl(port) {
  return `http://127.0.0.1:${port}/apis/ccompat/v7`;
}

function distDir(version) {
  return join(kafkaHome, 'apicurio', version);
}

/** Run directories live apart from the brokers' (.kafka/run/<port>/, whose every entry scripts/kafka reads as a broker). */
const runRoot = () => join(kafkaHome, 'registry-run');

function runFiles(port) {
  const dir = join(runRoot(), String(port));
  return { dir, state: join(dir, 'state.json'), log: join(dir, 'registry.log') };
}

function runnerJar(version) {
  const dir = distDir(version);
  const jar = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('-runner.jar')) : undefined;
  return jar ? join(dir, jar) : undefined;
}

/** True when the distribution of `version` is unpacked. */
export function apicurioCached(version) {
  return existsSync(join(distDir(apicurioVersion(version)), '.complete'));
}

/**
 * Fetches and unpacks the distribution once (Maven, `dependency:unpack-dependencies`); a marker file
 * records a complete copy and later calls download nothing.
 * @returns {Promise<{ dir: string, downloaded: boolean }>}
 */
export async function ensureApicurio(version, { log = console.error } = {}) {
  const v = apicurioVersion(version);
  const dir = distDir(v);
  if (apicurioCached(v)) return { dir, downloaded: false };
  checkMaven();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`[registry] fetching Apicurio Registry ${v} (about 140 MB) from Maven Central into ${dir} (first time only)`);
  const args = ['-B', '-q', '-U', '-Dstyle.color=never', '-f', pomFile, `-Dapicurio.version=${v}`, 'dependency:unpack-dependencies', `-DoutputDirectory=${dir}`, `-DmarkersDirectory=${join(dir, '.markers')}`];
  const { code, output } = await runCaptured('mvn', args);
  if (code !== 0 || !runnerJar(v)) {
    const errors = mavenErrors(output);
    rmSync(dir, { recursive: true, force: true });
    throw new KafkaSetupError(`mvn could not fetch io.apicurio:apicurio-registry-app:${v}:tar.gz:all (exit ${code}). Is Maven Central reachable?\n${errors}`);
  }
  writeFileSync(join(dir, '.complete'), `${new Date().toISOString()}\n`);
  return { dir, downloaded: true };
}

function readState(port) {
  try {
    return JSON.parse(readFileSync(runFiles(port).state, 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when the process carries our marker (-Dsluice.registry.port=<port>). */
function isOurs(pid, port) {
  const file = `/proc/${pid}/cmdline`;
  if (!existsSync(file)) return isAlive(pid);
  try {
    return readFileSync(file, 'utf8').includes(`-Dsluice.registry.port=${port}`);
  } catch {
    return false;
  }
}

/** True when the ccompat API answers on `url` (GET /subjects). */
export async function registryAnswers(url, { timeoutMs = 2_000 } = {}) {
  try {
    const res = await fetch(`${url.replace(/\/$/, '')}/subjects`, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * The registry this script runs on `port`, if any.
 * @returns {{ running: boolean, url?: string, pid?: number, version?: string, logFile?: string, ownerPid?: number }}
 */
export function registryStatus({ port } = {}) {
  const p = registryPort(port);
  const state = readState(p);
  if (!state?.pid || !isAlive(state.pid) || !isOurs(state.pid, p)) return { running: false };
  return { running: true, url: ccompatUrl(p), pid: state.pid, version: state.version, logFile: runFiles(p).log, ownerPid: state.ownerPid };
}

/** Stops the registry on `port` (SIGTERM, then SIGKILL) and removes its run directory. */
export async function stopRegistry({ port } = {}) {
  const p = registryPort(port);
  const state = readState(p);
  let how = 'not-running';
  if (state?.pid && isOurs(state.pid, p)) how = await terminate(state.pid, { timeoutMs: 10_000 });
  rmSync(runFiles(p).dir, { recursive: true, force: true });
  return { stopped: how !== 'not-running', how };
}

/** Stops registries whose owner process (e.g. a killed vitest run) is gone. */
async function reapOrphans(log) {
  if (!existsSync(runRoot())) return;
  for (const port of readdirSync(runRoot()).map(Number).filter((p) => Number.isInteger(p) && p > 0)) {
    const state = readState(port);
    if (state?.ownerPid && !isAlive(state.ownerPid)) {
      log(`[registry] stopping the registry on port ${port}: its owner (pid ${state.ownerPid}) is gone`);
      await stopRegistry({ port });
    }
  }
}

function logTail(port, lines = 30) {
  try {
    return readFileSync(runFiles(port).log, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts Apicurio Registry on 127.0.0.1:`port` and waits until its ccompat API answers (or reuses
 * the one this script already runs there).
 * Steps: 1. reuse a running one; 2. stop orphans, check Java and fetch the distribution; 3. spawn the
 * JVM detached (log in the run directory, state.json with its pid); 4. wait until GET /subjects
 * answers; on failure stop it and throw with the log's tail.
 * `ownerPid`: the registry belongs to this process; once it is gone, a later start stops it.
 * @returns {Promise<{ url: string, port: number, pid: number, version: string, logFile: string,
 *           downloaded: boolean, reused: boolean, startMs: number, stop: () => Promise<unknown> }>}
 */
export async function startRegistry(options = {}) {
  const began = Date.now();
  const log = options.log ?? ((line) => console.error(line));
  const port = registryPort(options.port);
  const version = apicurioVersion(options.version);
  const url = ccompatUrl(port);
  const f = runFiles(port);
  const stop = () => stopRegistry({ port });
  // 1. Already running here.
  const existing = registryStatus({ port });
  if (existing.running && (await registryAnswers(url))) {
    return { url, port, pid: existing.pid, version: existing.version, logFile: f.log, downloaded: false, reused: true, startMs: Date.now() - began, stop };
  }
  if (existing.running || existsSync(f.dir)) await stopRegistry({ port });
  // 2. Orphans, Java, distribution, port.
  await reapOrphans(log);
  checkJava();
  const { downloaded } = await ensureApicurio(version, { log });
  if (!(await portFree(port))) {
    throw new KafkaSetupError(`port ${port} on 127.0.0.1 is already in use by another process; choose another with --port <port> or SCHEMA_REGISTRY_PORT=<port>`);
  }
  // 3. The JVM (small heap; in-memory storage; no access log).
  mkdirSync(f.dir, { recursive: true });
  const heap = (options.heap ?? process.env.REGISTRY_HEAP_OPTS ?? '-Xmx384m -Xms64m').split(/\s+/).filter(Boolean);
  const jvm = [...heap, '-XX:+ExitOnOutOfMemoryError', '-XX:TieredStopAtLevel=1', `-Dsluice.registry.port=${port}`,
    `-Dquarkus.http.port=${port}`, '-Dquarkus.http.host=127.0.0.1', '-Dquarkus.http.access-log.enabled=false', '-Dregistry.ccompat.use-canonical-hash=true'];
  const logFd = openSync(f.log, 'a');
  const child = spawn(javaCommand(), [...jvm, '-jar', runnerJar(version)], { cwd: f.dir, detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  child.unref();
  let exited = false;
  child.on('exit', () => (exited = true));
  const pid = child.pid ?? 0;
  writeFileSync(f.state, JSON.stringify({ port, version, pid, ownerPid: options.ownerPid, url, startedAt: new Date().toISOString() }, null, 2));
  // 4. Ready when the ccompat API answers.
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (!(await registryAnswers(url))) {
    if (exited || !isAlive(pid) || Date.now() > deadline) {
      const why = exited || !isAlive(pid) ? 'the JVM exited' : `no answer within ${options.timeoutMs ?? 120_000} ms`;
      const tail = logTail(port);
      await stopRegistry({ port });
      throw new KafkaSetupError(`Apicurio Registry ${version} on port ${port} failed to start: ${why}\n--- tail of ${f.log} ---\n${tail}`);
    }
    await sleep(200);
  }
  return { url, port, pid, version, logFile: f.log, downloaded, reused: false, startMs: Date.now() - began, stop };
}
