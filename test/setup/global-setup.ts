/**
 * vitest global setup: decides once per run which Kafka the broker-backed
 * suites use and hands it to every test worker through `provide`
 * (`inject('kafkaBrokers')`, read it with test/helpers `kafkaBrokers()`).
 *
 * 1. SLUICE_SKIP_KAFKA=1, or every selected test file is under test/unit/: no broker.
 * 2. KAFKA_BROKERS set: use it (waits until it answers; throws if it never does).
 * 3. A broker started by `npm run kafka:start` answers on KAFKA_PORT/9092: reuse it (left running).
 * 4. java 17+ (and mvn unless the jars are cached): start a broker on a free port, stop it afterwards.
 * 5. Otherwise broker suites are skipped with one printed line, or, with
 *    REQUIRE_KAFKA=1, the run fails here.
 *
 * In parallel, the secure broker (SASL_SSL + mTLS + ACLs, scripts/kafka/secure.mjs) for the
 * suites that use it (`inject('secureKafka')`, read it with test/helpers `secureKafka()`):
 * see secure-setup.ts; and a real Schema Registry (Apicurio, scripts/registry/server.mjs) when
 * asked for (`inject('schemaRegistryUrl')`, test/helpers/registry-env.ts): see registry-setup.ts.
 */
import { relative, sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import { brokerStatus, clusterAnswers, jarsCached, kafkaVersion, startBroker, type RunningBroker } from '../../scripts/kafka/broker.mjs';
import { setupRegistry } from './registry-setup.js';
import { setupSecureKafka } from './secure-setup.js';
import { localBrokerPossible } from '../../scripts/kafka/prereq.mjs';
import { freePort } from '../../scripts/kafka/process.mjs';
import { waitForCluster } from '../../scripts/kafka/ready.mjs';

const required = process.env.REQUIRE_KAFKA === '1' || process.env.REQUIRE_KAFKA === 'true';

function say(line: string): void {
  process.stderr.write(`[sluice:kafka] ${line}\n`);
}

/** Test files this run executes, when vitest tells (internal state, read defensively). */
function selectedFiles(project: TestProject): string[] | undefined {
  const vitest = project.vitest as unknown as { state?: { pathsSet?: Set<string> }; filenamePattern?: string[] };
  const paths = vitest.state?.pathsSet;
  if (paths instanceof Set && paths.size > 0) return [...paths];
  return vitest.filenamePattern; // CLI filters as a fallback (e.g. ['test/unit'])
}

function onlyUnitTests(project: TestProject): boolean {
  const files = selectedFiles(project);
  if (!files || files.length === 0) return false;
  const root = project.config.root;
  return files.every((file) => {
    const rel = relative(root, file).split(sep).join('/');
    return rel.startsWith('test/unit/') || rel === 'test/unit' || file.startsWith('test/unit');
  });
}

/** No broker for this run. `deliberate`: asked for (unit-only run, SLUICE_SKIP_KAFKA), not a failure. */
function skip(project: TestProject, reason: string, deliberate = false): void {
  if (required && !deliberate) throw new Error(`REQUIRE_KAFKA=1 but no Kafka broker: ${reason}`);
  if (!deliberate || process.env.SLUICE_SKIP_KAFKA === '1') say(`Kafka broker suites SKIPPED: ${reason}`);
  project.provide('kafkaBrokers', null);
  project.provide('kafkaSkipReason', reason);
  project.provide('secureKafka', null);
  project.provide('secureKafkaSkipReason', reason);
}

function use(project: TestProject, brokers: string[]): void {
  process.env.KAFKA_BROKERS = brokers.join(',');
  project.provide('kafkaBrokers', brokers);
  project.provide('kafkaSkipReason', null);
}

type Teardown = (() => Promise<void>) | void;

export default async function setup(project: TestProject): Promise<Teardown> {
  const noServices = process.env.SLUICE_SKIP_KAFKA === '1' ? 'SLUICE_SKIP_KAFKA=1' : onlyUnitTests(project) ? 'only test/unit files selected' : undefined;
  if (noServices) {
    await setupRegistry(project, { files: undefined, say, skipAll: true }); // only a given SCHEMA_REGISTRY_URL
    return skip(project, noServices, true);
  }
  // The plaintext and the secure broker (two JVMs, ~10 s each on an idle machine) and the registry start in parallel.
  const files = selectedFiles(project);
  const results = await Promise.allSettled([plainKafka(project), setupSecureKafka(project, { required, files, say }), setupRegistry(project, { files, say })]);
  const stops = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
  const teardown = async () => {
    await Promise.all(stops.map((stop) => stop?.()));
  };
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await teardown(); // the other broker must not outlive a setup that failed (REQUIRE_KAFKA=1)
    throw failed.reason;
  }
  return teardown;
}

/** Steps 2 to 5 of the header: the plaintext broker. */
async function plainKafka(project: TestProject): Promise<Teardown> {
  const fromEnv = process.env.KAFKA_BROKERS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (fromEnv && fromEnv.length > 0) {
    try {
      await waitForCluster(fromEnv, { timeoutMs: 30_000 });
    } catch (err) {
      throw new Error(`KAFKA_BROKERS=${fromEnv.join(',')} does not answer: ${(err as Error).message}`, { cause: err });
    }
    say(`using KAFKA_BROKERS=${fromEnv.join(',')}`);
    return use(project, fromEnv);
  }

  const dev = brokerStatus();
  if (dev.running && dev.bootstrap && (await clusterAnswers([dev.bootstrap]))) {
    say(`using the running dev broker ${dev.bootstrap} (Kafka ${dev.version}, npm run kafka:start)`);
    return use(project, [dev.bootstrap]);
  }

  const version = kafkaVersion();
  const possible = localBrokerPossible(jarsCached(version));
  if (!possible.ok) return skip(project, possible.reason);

  let broker: RunningBroker;
  try {
    broker = await startBroker({ port: await freePort(), version, ownerPid: process.pid, log: say });
  } catch (err) {
    return skip(project, `local Kafka ${version} failed to start: ${(err as Error).message}`);
  }
  say(`started Kafka ${broker.version} at ${broker.bootstrap} in ${(broker.startMs / 1000).toFixed(1)} s (log ${broker.logFile})`);
  use(project, [broker.bootstrap]);
  return async () => {
    await broker.stop({ keepLog: false });
  };
}
