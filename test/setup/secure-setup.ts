/**
 * The secure broker of a test run (called by global-setup.ts, in parallel with the
 * plaintext broker): a local Kafka with a SASL_SSL listener, an mTLS listener and
 * ACLs (scripts/kafka/secure.mjs), handed to test workers as `inject('secureKafka')`
 * (read it with test/helpers `secureKafka()`).
 *
 * 1. No selected test file uses it (none mentions secureKafka, secure-kafka, kafkaSecure or kafka-secure),
 *    and REQUIRE_KAFKA is not set: not started, secure suites skipped quietly.
 * 2. A secure broker started by `npm run kafka:start -- --secure` answers on
 *    KAFKA_SECURE_PORT/9093: reuse it (left running).
 * 3. java 17+ (and mvn unless the jars are cached): start one on a free port with a
 *    small heap, stop it afterwards.
 * 4. Otherwise secure suites are skipped with one printed line, or, with
 *    REQUIRE_KAFKA=1, the run fails here.
 */
import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { brokerStatus, jarsCached, kafkaVersion, startBroker, type RunningBroker, type SecureBrokerInfo } from '../../scripts/kafka/broker.mjs';
import { localBrokerPossible } from '../../scripts/kafka/prereq.mjs';
import { freePort } from '../../scripts/kafka/process.mjs';
import { adminClientConfig } from '../../scripts/kafka/secure.mjs';
import { probeCluster } from '../../scripts/kafka/ready.mjs';

/** What secure suites get: addresses, PEM contents and the test users (see scripts/kafka/secure.mjs). */
export interface SecureKafkaInfo {
  /** SASL_SSL listener (SCRAM-SHA-512, SCRAM-SHA-256, PLAIN, OAUTHBEARER unsecured). */
  bootstrap: string[];
  /** Mutual-TLS listener (client certificate required; principal `clientPrincipal`). */
  mtlsBootstrap: string[];
  /** The CA that signed the broker and client certificates (PEM). */
  caPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  clientPrincipal: string;
  /** An unrelated CA (PEM): trusting only it must fail. */
  untrustedCaPem: string;
  /** `admin` (super user) and principals without any ACL: app, contract, alice, bob, carol, dave. */
  users: Record<string, { username: string; password: string }>;
  /** Kafka version of the broker (for addScramUser). */
  version: string;
  /** The broker's raw state (paths), e.g. for addScramUser. */
  state: SecureBrokerInfo;
}

/** Heap of the secure broker JVM in tests (small: its tests move little data). */
const HEAP = process.env.KAFKA_HEAP_OPTS ?? '-Xmx384m -Xms96m';

function info(secure: SecureBrokerInfo, version: string): SecureKafkaInfo {
  const pem = (path: string) => readFileSync(path, 'utf8');
  return {
    bootstrap: [secure.bootstrap],
    mtlsBootstrap: [secure.mtlsBootstrap],
    caPem: pem(secure.caPath),
    clientCertPem: pem(secure.clientCertPath),
    clientKeyPem: pem(secure.clientKeyPath),
    clientPrincipal: secure.clientPrincipal,
    untrustedCaPem: pem(secure.untrustedCaPath),
    users: secure.users,
    version,
    state: secure,
  };
}

/** True when a selected file uses the secure broker, or the selection is unknown (a full run). */
function selectionNeedsSecure(files: string[] | undefined): boolean {
  if (!files || files.length === 0) return true;
  return files.some((file) => {
    try {
      return /secure-?kafka|kafka-?secure/i.test(readFileSync(file, "utf8"));
    } catch {
      return !/test\/unit/.test(file); // a directory filter, e.g. `vitest run test/integration`
    }
  });
}

/**
 * Starts or reuses the secure broker and provides it; resolves with its teardown.
 * Steps as in the header.
 */
export async function setupSecureKafka(
  project: TestProject,
  { required, files, say }: { required: boolean; files: string[] | undefined; say: (line: string) => void },
): Promise<(() => Promise<void>) | void> {
  const unavailable = (reason: string, quiet = false): void => {
    if (required) throw new Error(`REQUIRE_KAFKA=1 but no secure Kafka broker: ${reason}`);
    if (!quiet) say(`secure Kafka suites SKIPPED: ${reason}`);
    project.provide('secureKafka', null);
    project.provide('secureKafkaSkipReason', reason);
  };
  // 1. Not needed by this selection.
  if (!required && !selectionNeedsSecure(files)) return unavailable('no selected test file uses the secure broker', true);

  // 2. A running dev secure broker.
  const dev = brokerStatus({ secure: true });
  if (dev.running && dev.secure && (await answers(dev.secure))) {
    say(`using the running secure dev broker ${dev.secure.bootstrap} (npm run kafka:start -- --secure)`);
    project.provide('secureKafka', info(dev.secure, dev.version ?? kafkaVersion()));
    project.provide('secureKafkaSkipReason', null);
    return;
  }

  // 3. Start one.
  const version = kafkaVersion();
  const possible = localBrokerPossible(jarsCached(version));
  if (!possible.ok) return unavailable(possible.reason ?? 'java 17+ not available');
  let broker: RunningBroker;
  try {
    broker = await startBroker({ secure: true, port: await freePort(), mtlsPort: await freePort(), version, heap: HEAP, ownerPid: process.pid, log: say });
  } catch (err) {
    // 4. Could not start.
    return unavailable(`secure Kafka ${version} failed to start: ${(err as Error).message}`);
  }
  if (!broker.secure) return unavailable('startBroker({ secure: true }) returned no secure details');
  say(`started secure Kafka ${broker.version} at ${broker.secure.bootstrap} (SASL_SSL), ${broker.secure.mtlsBootstrap} (mTLS) in ${(broker.startMs / 1000).toFixed(1)} s`);
  project.provide('secureKafka', info(broker.secure, broker.version));
  project.provide('secureKafkaSkipReason', null);
  return async () => {
    await broker.stop({ keepLog: false });
  };
}

async function answers(secure: SecureBrokerInfo): Promise<boolean> {
  try {
    await probeCluster([secure.bootstrap], { client: adminClientConfig(secure) });
    return true;
  } catch {
    return false;
  }
}
