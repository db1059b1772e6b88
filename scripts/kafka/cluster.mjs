// ES module API of the local multi-broker Kafka cluster (used by scripts/kafka.mjs
// `--brokers N`, the multi-broker failover test and the broker soak):
// startCluster() / stopCluster() / clusterStatus() / killNode() / restartNode().
// Leaders and ISRs: scripts/kafka/cluster-metadata.mjs.
//
// Files: `<kafka home>/clusters/<first port>/` holds state.json and, per node,
// `node-<id>/server.properties` and `node-<id>/broker.log`; each node's data lives
// in a fresh temporary directory (kept across killNode/restartNode, removed by stop).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaPort, kafkaVersion } from './broker.mjs';
import { clusterNodeProperties, clusterNodes } from './cluster-config.mjs';
import { clusterBrokerIds } from './cluster-metadata.mjs';
import { ensureKafkaJars } from './jars.mjs';
import { kafkaHome, libsDir, log4jConfigFile } from './paths.mjs';
import { checkJava, javaCommand, KafkaSetupError } from './prereq.mjs';
import { isAlive, isOurBroker, portFree, sleep, terminate } from './process.mjs';
import { probeCluster, waitForCluster, warmUp } from './ready.mjs';
import { randomClusterId } from './server-config.mjs';

/** Default JVM heap of each node: three nodes fit beside the tests on a small machine. */
export const DEFAULT_NODE_HEAP = '-Xmx384m -Xms128m';

function dirOf(port) {
  return join(kafkaHome, 'clusters', String(port));
}

function nodeFiles(port, id) {
  const dir = join(dirOf(port), `node-${id}`);
  return { dir, props: join(dir, 'server.properties'), log: join(dir, 'broker.log') };
}

function readState(port) {
  try {
    return JSON.parse(readFileSync(join(dirOf(port), 'state.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeState(state) {
  writeFileSync(join(dirOf(state.port), 'state.json'), JSON.stringify(state, null, 2));
}

function nodeRunning(node) {
  return !!node.pid && isAlive(node.pid) && isOurBroker(node.pid, node.port);
}

/**
 * The cluster started by this script at first port `port`.
 * @returns {{ running: boolean, port: number, bootstrap?: string, version?: string,
 *            nodes: { id: number, port: number, pid: number, running: boolean, logFile: string }[] }}
 */
export function clusterStatus({ port } = {}) {
  const p = kafkaPort(port);
  const state = readState(p);
  const nodes = (state?.nodes ?? []).map((n) => ({ ...n, running: nodeRunning(n), logFile: nodeFiles(p, n.id).log }));
  return { ...(state ?? {}), port: p, nodes, running: nodes.length > 0 && nodes.every((n) => n.running) };
}

/** Last `lines` lines of node `id`'s log. */
export function nodeLogTail(port, id, lines = 30) {
  try {
    return readFileSync(nodeFiles(port, id).log, 'utf8').split('\n').slice(-lines - 1).join('\n');
  } catch {
    return '';
  }
}

function formatNode(version, clusterId, props, log) {
  const args = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m', '-cp', `${libsDir(version)}/*`,
    `-Dlog4j2.configurationFile=${log4jConfigFile}`, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', props, '--ignore-formatted'];
  const res = spawnSync(javaCommand(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  writeFileSync(log, `$ java ${args.join(' ')}\n${res.stdout ?? ''}${res.stderr ?? ''}\n`);
  if (res.status !== 0) throw new KafkaSetupError(`formatting the KRaft storage of ${props} failed (exit ${res.status}):\n${res.stdout}${res.stderr}`);
}

/** Spawns node `node` detached on its formatted storage; returns its pid (does not wait). */
function spawnNode(state, node) {
  const f = nodeFiles(state.port, node.id);
  const jvm = [...state.heap.split(/\s+/).filter(Boolean), '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError',
    '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${log4jConfigFile}`, `-Dsluice.kafka.port=${node.port}`];
  const logFd = openSync(f.log, 'a');
  const child = spawn(javaCommand(), [...jvm, '-cp', `${libsDir(state.version)}/*`, 'kafka.Kafka', f.props], { detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  child.unref();
  return child.pid ?? 0;
}

/** Waits until every node answers and the cluster metadata lists `ids` as registered brokers. */
async function waitForNodes(state, ids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (const id of ids) {
    const node = state.nodes.find((n) => n.id === id);
    const left = Math.max(1000, deadline - Date.now());
    await waitForCluster([`127.0.0.1:${node.port}`], { timeoutMs: left, isAlive: () => isAlive(node.pid) });
  }
  for (;;) {
    const registered = await clusterBrokerIds(state.nodes.map((n) => `127.0.0.1:${n.port}`)).catch(() => []);
    if (ids.every((id) => registered.includes(id))) return;
    if (Date.now() > deadline) throw new Error(`brokers ${ids.join(',')} not all registered within ${timeoutMs} ms (registered: ${registered.join(',')})`);
    await sleep(250);
  }
}

/**
 * Starts (or reuses) a detached `nodes`-node KRaft cluster of combined broker+controller nodes
 * (controller quorum of all nodes) on 127.0.0.1, client ports `port`..`port+nodes-1`.
 * Steps: 1. reuse a running one, else clear stale files and orphans; 2. jars, free ports;
 * 3. per node a data directory, server.properties, and `format` with one shared cluster id;
 * 4. spawn every node; 5. wait until each answers and all are registered; 6. warm up the
 * group and transaction coordinators (creates __consumer_offsets / __transaction_state at RF 3).
 * @param {{ port?: number|string, nodes?: number, version?: string, heap?: string, timeoutMs?: number,
 *           ownerPid?: number, sessionTimeoutMs?: number, log?: (line: string) => void }} [options]
 */
export async function startCluster(options = {}) {
  const began = Date.now();
  const log = options.log ?? ((line) => console.error(line));
  const port = kafkaPort(options.port);
  const count = options.nodes ?? 3;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const api = { stop: (opts = {}) => stopCluster({ port, ...opts }) };
  // 1. reuse / clean up
  const existing = clusterStatus({ port });
  if (existing.running) {
    await waitForCluster(existing.nodes.map((n) => `127.0.0.1:${n.port}`), { timeoutMs: 60_000 });
    return { ...describe(existing), reused: true, startMs: Date.now() - began, ...api };
  }
  if (existing.nodes.length > 0) await stopCluster({ port });
  await reapOrphanClusters({ log });
  // 2. prerequisites
  checkJava();
  const version = kafkaVersion(options.version);
  await ensureKafkaJars(version, { log });
  const layout = clusterNodes(port, count);
  for (const p of layout.flatMap((n) => [n.port, n.controllerPort])) {
    if (!(await portFree(p))) throw new KafkaSetupError(`port ${p} on 127.0.0.1 is in use; a ${count}-node cluster at --port ${port} needs ports ${port}..${port + 2 * count - 1}`);
  }
  // 3. storage
  const clusterId = randomClusterId();
  const state = { port, version, clusterId, heap: options.heap ?? process.env.KAFKA_HEAP_OPTS ?? DEFAULT_NODE_HEAP, ownerPid: options.ownerPid, startedAt: new Date().toISOString(), nodes: [] };
  mkdirSync(dirOf(port), { recursive: true });
  for (const n of layout) {
    const f = nodeFiles(port, n.id);
    mkdirSync(f.dir, { recursive: true });
    const dataDir = mkdtempSync(join(tmpdir(), `sluice-kafka-cluster-${port}-node-${n.id}-`));
    writeFileSync(f.props, clusterNodeProperties({ id: n.id, nodes: layout, dataDir, sessionTimeoutMs: options.sessionTimeoutMs }));
    state.nodes.push({ ...n, dataDir, pid: 0 });
  }
  writeState(state);
  try {
    for (const n of state.nodes) formatNode(version, clusterId, nodeFiles(port, n.id).props, nodeFiles(port, n.id).log);
    // 4. spawn
    for (const n of state.nodes) n.pid = spawnNode(state, n);
    writeState(state);
    // 5. + 6. ready
    await waitForNodes(state, state.nodes.map((n) => n.id), timeoutMs);
    await warmUp(state.nodes.map((n) => `127.0.0.1:${n.port}`));
  } catch (err) {
    const tails = state.nodes.map((n) => `--- tail of ${nodeFiles(port, n.id).log} ---\n${nodeLogTail(port, n.id, 15)}`).join('\n');
    await stopCluster({ port });
    throw new KafkaSetupError(`Kafka ${version} ${count}-node cluster at port ${port} failed to start: ${err?.message ?? err}\n${tails}`, { cause: err });
  }
  return { ...describe(clusterStatus({ port })), reused: false, startMs: Date.now() - began, ...api };
}

function describe(status) {
  const brokers = status.nodes.map((n) => `127.0.0.1:${n.port}`);
  return { port: status.port, version: status.version, clusterId: status.clusterId, brokers, bootstrap: brokers.join(','), nodes: status.nodes };
}

/** SIGKILLs node `id` (as a crash; its data is kept) and resolves once the process is gone. */
export async function killNode({ port, id }) {
  const state = readState(kafkaPort(port));
  const node = state?.nodes.find((n) => n.id === id);
  if (!node) throw new KafkaSetupError(`no node ${id} in the cluster at port ${port}`);
  if (!nodeRunning(node)) return { killed: false, pid: node.pid };
  process.kill(node.pid, 'SIGKILL');
  while (isAlive(node.pid)) await sleep(20);
  return { killed: true, pid: node.pid };
}

/**
 * Starts node `id` again on its kept data (after {@link killNode}, or SIGTERM first when it
 * still runs) and resolves once it answers and is registered again.
 * @returns {Promise<{ pid: number, restartMs: number }>}
 */
export async function restartNode({ port, id, timeoutMs = 120_000 }) {
  const began = Date.now();
  const state = readState(kafkaPort(port));
  const node = state?.nodes.find((n) => n.id === id);
  if (!node || !existsSync(node.dataDir)) throw new KafkaSetupError(`no node ${id} with data in the cluster at port ${port}; start the cluster first`);
  if (nodeRunning(node)) await terminate(node.pid, { timeoutMs: 10_000 });
  for (let i = 0; i < 100 && !(await portFree(node.port)); i++) await sleep(50);
  node.pid = spawnNode(state, node);
  writeState(state);
  try {
    await waitForNodes(state, [id], timeoutMs);
  } catch (err) {
    throw new KafkaSetupError(`node ${id} (port ${node.port}) did not come back: ${err?.message ?? err}\n${nodeLogTail(state.port, id)}`, { cause: err });
  }
  return { pid: node.pid, restartMs: Date.now() - began };
}

/** Stops every node (SIGTERM, SIGKILL after `timeoutMs`), removes the data; `keepLog: false` also the logs. */
export async function stopCluster({ port, timeoutMs = 10_000, keepLog = true } = {}) {
  const p = kafkaPort(port);
  const state = readState(p);
  if (!state) return { stopped: false };
  const hows = await Promise.all(state.nodes.map((n) => (nodeRunning(n) ? terminate(n.pid, { timeoutMs }) : 'not-running')));
  for (const n of state.nodes) if (n.dataDir?.includes('sluice-kafka-cluster-')) rmSync(n.dataDir, { recursive: true, force: true });
  rmSync(join(dirOf(p), 'state.json'), { force: true });
  if (!keepLog) rmSync(dirOf(p), { recursive: true, force: true });
  return { stopped: hows.some((h) => h !== 'not-running') };
}

/** Stops clusters whose owner process (`ownerPid` of startCluster) is gone. */
export async function reapOrphanClusters({ log = () => {} } = {}) {
  let ports = [];
  try {
    ports = readdirSync(join(kafkaHome, 'clusters'));
  } catch {
    return;
  }
  for (const port of ports) {
    const state = readState(port);
    if (state?.ownerPid && !isAlive(state.ownerPid)) {
      log(`[kafka] stopping orphaned cluster at port ${port} (owner ${state.ownerPid} is gone)`);
      await stopCluster({ port, keepLog: false });
    }
  }
}

/** True when some node of `brokers` answers a metadata request. */
export async function clusterAnswers(brokers) {
  return probeCluster(brokers).then(() => true, () => false);
}
