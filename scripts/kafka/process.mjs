// Small process helpers for the detached broker JVM.
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** True when a process with this pid exists (and may be signalled). */
export function isAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** True when the process carries our marker (-Dsluice.kafka.port=<port>); true where /proc is unavailable. */
export function isOurBroker(pid, port) {
  const file = `/proc/${pid}/cmdline`;
  if (!existsSync(file)) return isAlive(pid);
  try {
    return readFileSync(file, 'utf8').includes(`-Dsluice.kafka.port=${port}`);
  } catch {
    return false;
  }
}

/** Sends SIGTERM, waits up to `timeoutMs`, then SIGKILL. Resolves once the process is gone. */
export async function terminate(pid, { timeoutMs = 10_000 } = {}) {
  if (!isAlive(pid)) return 'not-running';
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return 'not-running';
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'terminated';
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  while (isAlive(pid)) await sleep(50);
  return 'killed';
}

/** True when nothing listens on 127.0.0.1:port. */
export function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the OS reports free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
