// ES module API of the local Kafka broker (used by scripts/kafka.mjs and by
// the vitest global setup): startBroker() / stopBroker() / brokerStatus().
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureKafkaJars, jarsCached } from './jars.mjs';
import { kafkaHome, libsDir, log4jConfigFile, runDir } from './paths.mjs';
import { checkJava, javaCommand, KafkaSetupError } from './prereq.mjs';
import { freePort, isAlive, isOurBroker, portFree, terminate } from './process.mjs';
import { probeCluster, waitForCluster, warmUp } from './ready.mjs';
import { adminClientConfig, DEFAULT_SECURE_PORT, prepareSecure, removeSecureFiles } from './secure.mjs';
import { randomClusterId, serverProperties } from './server-config.mjs';

/** The pinned Kafka release (see README "Kafka compatibility"). Override with KAFKA_VERSION. */
export const DEFAULT_KAFKA_VERSION = '4.4.0';
/** Default client port. Override with KAFKA_PORT or --port. */
export const DEFAULT_KAFKA_PORT = 9092;

export { KafkaSetupError, jarsCached };

/** The Kafka version to use: the argument, else KAFKA_VERSION, else the pinned one. */
export function kafkaVersion(version) {
  return version ?? process.env.KAFKA_VERSION ?? DEFAULT_KAFKA_VERSION;
}

/** The client port to use: the argument, else KAFKA_PORT (KAFKA_SECURE_PORT with `secure`), else 9092 (9093). */
export function kafkaPort(port, { secure = false } = {}) {
  const fallback = secure ? (process.env.KAFKA_SECURE_PORT ?? DEFAULT_SECURE_PORT) : (process.env.KAFKA_PORT ?? DEFAULT_KAFKA_PORT);
  const value = Number(port ?? fallback);
  if (!Number.isInteger(value) || value <= 0 || value > 65535) {
    throw new KafkaSetupError(`invalid Kafka port: ${port ?? fallback}`);
  }
  return value;
}

function files(port) {
  const dir = runDir(port);
  return { dir, pid: join(dir, 'broker.pid'), log: join(dir, 'broker.log'), state: join(dir, 'state.json'), props: join(dir, 'server.properties') };
}

function readState(port) {
  try {
    return JSON.parse(readFileSync(files(port).state, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Last `lines` lines of the broker log of `port` (empty when none). */
export function logTail(port, lines = 40) {
  try {
    return readFileSync(files(port).log, 'utf8').split('\n').slice(-lines - 1).join('\n');
  } catch {
    return '';
  }
}

/**
 * The broker started by this script on `port`, if it is still running
 * (`secure`: the default port is the secure broker's; `secure` of the result: see prepareSecure).
 * @returns {{ running: boolean, pid?: number, bootstrap?: string, version?: string, dataDir?: string, logFile: string, secure?: object }}
 */
export function brokerStatus({ port, secure } = {}) {
  const p = kafkaPort(port, { secure });
  const state = readState(p);
  const running = !!state && isAlive(state.pid) && isOurBroker(state.pid, p);
  return { ...(state ?? {}), running, logFile: files(p).log };
}

function classpath(version) {
  return `${libsDir(version)}/*`;
}

/** kafkajs options a readiness probe needs for the broker of `state` (admin over SASL_SSL when secure). */
function probeClient(state) {
  return state?.secure ? adminClientConfig(state.secure) : undefined;
}

function format(version, props, log, extraArgs = []) {
  // A short-lived tool JVM: C1 only, serial GC, small heap start faster.
  const args = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m', '-cp', classpath(version),
    `-Dlog4j2.configurationFile=${log4jConfigFile}`, 'kafka.tools.StorageTool',
    'format', `--cluster-id=${randomClusterId()}`, '-c', props, '--standalone', '--ignore-formatted', ...extraArgs];
  const res = spawnSync(javaCommand(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const shown = args.map((a) => a.replace(/password=[^\]]*/, 'password=***')); // SCRAM passwords stay out of the log
  writeFileSync(log, `$ java ${shown.join(' ')}\n${res.stdout ?? ''}${res.stderr ?? ''}\n`);
  if (res.status !== 0) {
    throw new KafkaSetupError(`formatting the KRaft storage failed (exit ${res.status}):\n${res.stdout}${res.stderr}`);
  }
}

/**
 * Starts (or reuses) a detached single-node Kafka (broker+controller, KRaft) on 127.0.0.1.
 * The first call for a version fetches its jars with Maven; later calls download nothing.
 * Resolves once a kafkajs admin client can list topics and the group and transaction
 * coordinators answer (see warmUp in ready.mjs).
 *
 * `ownerPid`: the broker belongs to that process (e.g. a test run); once it is gone, the
 * next startBroker() call stops the broker (see {@link reapOrphans}). Without it the broker
 * lives until `stopBroker()`.
 *
 * `secure`: the SASL_SSL + mTLS broker with ACLs of secure.mjs (certificates and users
 * generated at start, recorded as `secure` in the result and the state file); its
 * mTLS listener uses `mtlsPort` (default: the port after `port` when free, else any).
 *
 * @param {{ port?: number, controllerPort?: number, version?: string, heap?: string, secure?: boolean,
 *           mtlsPort?: number, timeoutMs?: number, ownerPid?: number, log?: (line: string) => void }} [options]
 * @returns {Promise<{ bootstrap: string, port: number, pid: number, version: string, logFile: string,
 *           dataDir: string, downloaded: boolean, reused: boolean, startMs: number, stop: () => Promise<void> }>}
 */
export async function startBroker(options = {}) {
  const began = Date.now();
  const log = options.log ?? ((line) => console.error(line));
  const secureMode = !!options.secure;
  const port = kafkaPort(options.port, { secure: secureMode });
  const version = kafkaVersion(options.version);
  const f = files(port);
  const bootstrap = `127.0.0.1:${port}`;
  const stop = (opts = {}) => stopBroker({ port, ...opts });

  const existing = brokerStatus({ port });
  if (existing.running) {
    if (!!existing.secure !== secureMode) {
      throw new KafkaSetupError(`a ${existing.secure ? 'secure' : 'plaintext'} broker already runs on port ${port}; stop it first or choose another port`);
    }
    await waitForCluster([bootstrap], { timeoutMs: options.timeoutMs ?? 90_000, isAlive: () => isAlive(existing.pid), client: probeClient(existing) });
    return { ...existing, bootstrap, port, reused: true, downloaded: false, startMs: Date.now() - began, stop };
  }
  if (existing.dataDir) await stopBroker({ port }); // stale files of a dead broker
  await reapOrphans({ log });

  checkJava();
  const { downloaded } = await ensureKafkaJars(version, { log });
  if (!(await portFree(port))) {
    throw new KafkaSetupError(`port ${port} on 127.0.0.1 is already in use by another process; choose another with KAFKA_PORT=<port> or --port <port>`);
  }
  const controllerPort = options.controllerPort ?? Number(process.env.KAFKA_CONTROLLER_PORT ?? (await freePort()));

  mkdirSync(f.dir, { recursive: true });
  const sec = secureMode ? await prepareSecureStart(f.dir, port, controllerPort, options.mtlsPort) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), `sluice-kafka-${port}-`));
  writeFileSync(f.props, serverProperties({ port, controllerPort, dataDir, overrides: sec?.props }), { mode: 0o600 });
  const state = { port, controllerPort, version, bootstrap, dataDir, pid: 0, ownerPid: options.ownerPid, startedAt: new Date().toISOString(), secure: sec?.secure };
  writeFileSync(f.state, JSON.stringify(state, null, 2), { mode: 0o600 });
  try {
    format(version, f.props, f.log, sec?.formatArgs);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const { pid, answeringMs } = await launch({ port, version, bootstrap, state, heap: options.heap, timeoutMs: options.timeoutMs, began });
  return { bootstrap, port, pid, version, logFile: f.log, dataDir, downloaded, reused: false, startMs: Date.now() - began, answeringMs, stop, secure: state.secure };
}

/** The certificates, users and properties of a secure start (see secure.mjs), with its mTLS port. */
async function prepareSecureStart(runDirectory, port, controllerPort, mtlsPortOption) {
  const next = port + 1;
  const mtlsPort = mtlsPortOption ?? ((await portFree(next)) ? next : await freePort());
  if (mtlsPortOption && !(await portFree(mtlsPortOption))) {
    throw new KafkaSetupError(`mTLS port ${mtlsPortOption} on 127.0.0.1 is already in use; choose another with --mtls-port`);
  }
  return prepareSecure({ runDirectory, port, mtlsPort, controllerPort });
}

/**
 * Runs the broker JVM on an already formatted storage (`state.dataDir`) and waits until it answers.
 * Steps: 1. spawn detached with the run directory's server.properties; 2. record its pid in the
 * run directory; 3. wait for metadata, then warm up the coordinators; 4. on failure stop it and
 * throw with the log's tail.
 */
async function launch({ port, version, bootstrap, state, heap: heapOption, timeoutMs, began }) {
  const f = files(port);
  const heap = heapOption ?? process.env.KAFKA_HEAP_OPTS ?? (state.secure ? '-Xmx512m -Xms128m' : '-Xmx1g -Xms256m');
  const jvm = [...heap.split(/\s+/).filter(Boolean), '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError',
    '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${log4jConfigFile}`, `-Dsluice.kafka.port=${port}`];
  const logFd = openSync(f.log, 'a');
  const child = spawn(javaCommand(), [...jvm, '-cp', classpath(version), 'kafka.Kafka', f.props], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  child.unref();
  let exited = false;
  child.on('exit', () => (exited = true));
  const pid = child.pid ?? 0;
  writeFileSync(f.pid, `${pid}\n`);
  writeFileSync(f.state, JSON.stringify({ ...state, pid }, null, 2));
  try {
    const client = probeClient(state);
    await waitForCluster([bootstrap], { timeoutMs: timeoutMs ?? 90_000, isAlive: () => !exited && isAlive(pid), client });
    const answeringMs = Date.now() - began;
    await warmUp([bootstrap], { client });
    return { pid, answeringMs };
  } catch (err) {
    await stopBroker({ port });
    const reason = err instanceof Error ? err.message : String(err);
    throw new KafkaSetupError(`Kafka ${version} on ${bootstrap} failed to start: ${reason}\n--- tail of ${f.log} ---\n${logTail(port)}`, { cause: err });
  }
}

/**
 * Restarts the broker on `port` and keeps its data (its logs, topics, committed offsets and
 * transactions survive), as a crashed or rolled broker would come back.
 * Steps: 1. stop the JVM (SIGTERM, or SIGKILL at once with `kill: true`) without touching the
 * data directory; 2. launch it again on the same storage and ports; 3. wait until it answers.
 * @param {{ port?: number, kill?: boolean, timeoutMs?: number, heap?: string }} [options]
 * @returns {Promise<{ bootstrap: string, pid: number, restartMs: number }>}
 */
export async function restartBroker(options = {}) {
  const began = Date.now();
  const port = kafkaPort(options.port);
  const state = readState(port);
  if (!state?.dataDir || !existsSync(state.dataDir)) {
    throw new KafkaSetupError(`no broker data on port ${port} to restart; start one first (node scripts/kafka.mjs start --port ${port})`);
  }
  if (state.pid && isAlive(state.pid) && isOurBroker(state.pid, port)) {
    if (options.kill) {
      process.kill(state.pid, 'SIGKILL');
      for (let i = 0; i < 200 && isAlive(state.pid); i++) await new Promise((r) => setTimeout(r, 25));
    } else {
      await terminate(state.pid, { timeoutMs: options.timeoutMs ?? 10_000 });
    }
  }
  const { pid } = await launch({ port, version: state.version, bootstrap: state.bootstrap, state, heap: options.heap, timeoutMs: options.timeoutMs, began });
  return { bootstrap: state.bootstrap, pid, restartMs: Date.now() - began };
}

/**
 * Stops the broker started on `port` (SIGTERM, SIGKILL after `timeoutMs`) and removes its data directory.
 * `keepLog: false` also removes the run directory (log, server.properties).
 * @returns {Promise<{ stopped: boolean, how: string }>}
 */
export async function stopBroker({ port, timeoutMs = 10_000, keepLog = true } = {}) {
  const p = kafkaPort(port);
  const f = files(p);
  const state = readState(p);
  let how = 'not-running';
  if (state?.pid && isAlive(state.pid) && isOurBroker(state.pid, p)) how = await terminate(state.pid, { timeoutMs });
  if (state?.dataDir && state.dataDir.includes('sluice-kafka-')) rmSync(state.dataDir, { recursive: true, force: true });
  if (state?.secure) removeSecureFiles(f.dir); // certificates, keys, passwords are per start
  for (const file of [f.pid, f.state]) if (existsSync(file)) rmSync(file);
  if (!keepLog) rmSync(f.dir, { recursive: true, force: true });
  return { stopped: how !== 'not-running', how };
}

/**
 * Stops brokers whose owner process (`ownerPid` given to startBroker, e.g. a
 * killed test run) is gone, and removes their files. Brokers without an owner
 * (`npm run kafka:start`) are never touched.
 */
export async function reapOrphans({ log = () => {} } = {}) {
  let ports = [];
  try {
    ports = readdirSync(join(kafkaHome, 'run'));
  } catch {
    return;
  }
  for (const port of ports) {
    const state = readState(port);
    if (state?.ownerPid && !isAlive(state.ownerPid)) {
      log(`[kafka] stopping orphaned broker on port ${port} (owner ${state.ownerPid} is gone)`);
      await stopBroker({ port, keepLog: false });
    }
  }
}

/** True when a cluster at `brokers` answers a metadata request. */
export async function clusterAnswers(brokers) {
  try {
    await probeCluster(brokers);
    return true;
  } catch {
    return false;
  }
}
