/**
 * The real Schema Registry of a test run (called by global-setup.ts, in parallel with the
 * brokers): a registry speaking Confluent's REST API, handed to test workers as
 * `inject('schemaRegistryUrl')` (read it with test/helpers/registry-env.ts `schemaRegistryUrl()`,
 * or use `describeRegistry`).
 *
 * 1. SCHEMA_REGISTRY_URL set: use it (waits until GET /subjects answers; throws if it never does).
 * 2. A registry started by `npm run registry:start` answers on SCHEMA_REGISTRY_PORT/8081: reuse it (left running).
 * 3. Asked for: REQUIRE_REGISTRY=1, or a selected test file uses `describeRegistry` / `schemaRegistryUrl(`
 *    (a full `npm test` selects test/integration/registry-ccompat.test.ts, so it does), and not
 *    SLUICE_SKIP_REGISTRY=1: start Apicurio Registry (scripts/registry/server.mjs, in memory, ~6 s;
 *    the first time on a machine Maven fetches ~140 MB and unpacks it, ~10 s more) on a free port,
 *    stop it afterwards.
 * 4. Otherwise registry suites are skipped with the reason, or, with REQUIRE_REGISTRY=1, the run fails here.
 */
import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { localBrokerPossible } from '../../scripts/kafka/prereq.mjs';
import { freePort } from '../../scripts/kafka/process.mjs';
import { apicurioCached, registryAnswers, registryStatus, startRegistry, type RunningRegistry } from '../../scripts/registry/server.mjs';

const required = process.env.REQUIRE_REGISTRY === '1' || process.env.REQUIRE_REGISTRY === 'true';

/** True when a selected file uses the real registry (an unknown selection does not count). */
function selectionNeedsRegistry(files: string[] | undefined): boolean {
  if (!files || files.length === 0) return false;
  return files.some((file) => {
    try {
      return /describeRegistry|schemaRegistryUrl\(/.test(readFileSync(file, 'utf8'));
    } catch {
      return false; // a directory filter
    }
  });
}

async function answersWithin(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  do {
    if (await registryAnswers(url)) return true;
    await new Promise((r) => setTimeout(r, 500));
  } while (Date.now() < deadline);
  return false;
}

/**
 * Provides `schemaRegistryUrl` (or null with `schemaRegistrySkipReason`); resolves with the
 * teardown of a registry it started. `skipAll`: this run wants no services (unit files only,
 * SLUICE_SKIP_KAFKA=1): only step 1 applies.
 */
export async function setupRegistry(
  project: TestProject,
  { files, say, skipAll = false }: { files: string[] | undefined; say: (line: string) => void; skipAll?: boolean },
): Promise<(() => Promise<void>) | void> {
  const use = (url: string): void => {
    process.env.SCHEMA_REGISTRY_URL = url;
    project.provide('schemaRegistryUrl', url);
    project.provide('schemaRegistrySkipReason', null);
  };
  const unavailable = (reason: string, quiet = false): void => {
    if (required && !skipAll) throw new Error(`REQUIRE_REGISTRY=1 but no Schema Registry: ${reason}`);
    if (!quiet) say(`Schema Registry suites SKIPPED: ${reason}`);
    project.provide('schemaRegistryUrl', null);
    project.provide('schemaRegistrySkipReason', reason);
  };

  // 1. Given.
  const fromEnv = process.env.SCHEMA_REGISTRY_URL?.trim().replace(/\/$/, '');
  if (fromEnv) {
    if (!(await answersWithin(fromEnv, 30_000))) throw new Error(`SCHEMA_REGISTRY_URL=${fromEnv} does not answer GET /subjects`);
    say(`using SCHEMA_REGISTRY_URL=${fromEnv}`);
    return use(fromEnv);
  }
  if (skipAll) return unavailable('no Schema Registry for this run (unit files only or SLUICE_SKIP_KAFKA=1)', true);

  // 2. A running dev registry.
  const dev = registryStatus();
  if (dev.running && dev.url && (await registryAnswers(dev.url))) {
    say(`using the running dev registry ${dev.url} (Apicurio Registry ${dev.version}, npm run registry:start)`);
    return use(dev.url);
  }

  // 3. Start one when asked for.
  if (!required && process.env.SLUICE_SKIP_REGISTRY === '1') return unavailable('SLUICE_SKIP_REGISTRY=1');
  if (!required && !selectionNeedsRegistry(files)) {
    return unavailable('not asked for: set REQUIRE_REGISTRY=1, SCHEMA_REGISTRY_URL, or run `npm run registry:start`', true);
  }
  const possible = localBrokerPossible(apicurioCached()); // the same tools: java 17+, mvn unless cached
  if (!possible.ok) return unavailable(possible.reason);
  let registry: RunningRegistry;
  try {
    registry = await startRegistry({ port: await freePort(), ownerPid: process.pid, log: say });
  } catch (err) {
    // 4. Could not start.
    return unavailable(`Apicurio Registry failed to start: ${(err as Error).message}`);
  }
  say(`started Apicurio Registry ${registry.version} at ${registry.url} in ${(registry.startMs / 1000).toFixed(1)} s${registry.downloaded ? ' (distribution downloaded)' : ''}`);
  use(registry.url);
  return async () => {
    await registry.stop();
  };
}
