/**
 * The secure test broker (SASL_SSL + mTLS + ACLs, started by the vitest global
 * setup, see test/setup/secure-setup.ts) and the ACLs a Kafka Streams application
 * needs on it.
 */
import kafkajs from 'kafkajs';
import type { AclEntry, Admin, KafkaConfig, SASLOptions } from 'kafkajs';
import { describe, inject } from 'vitest';
import type { SecureKafkaInfo } from '../setup/secure-setup.js';
import { quietKafka } from './clients.js';
import { createTopic, readAll, type CreateTopicOptions, type ReadRecord } from './topics.js';
import { waitFor } from './wait-for.js';

export type { SecureKafkaInfo };

const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs;

function injected<K extends 'secureKafka' | 'secureKafkaSkipReason'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined; // not running under vitest's global setup
  }
}

/** The secure broker of this run, or `undefined` when secure suites are skipped. */
export function secureKafka(): SecureKafkaInfo | undefined {
  return injected('secureKafka') ?? undefined;
}

/** Why secure suites are skipped, or `undefined` when the secure broker is available. */
export function secureKafkaSkipReason(): string | undefined {
  if (secureKafka()) return undefined;
  return injected('secureKafkaSkipReason') ?? 'no secure Kafka broker (run the tests through vitest with Java 17+)';
}

/** The secure broker; throws when there is none (use inside a {@link describeSecureKafka} suite). */
export function requireSecureKafka(): SecureKafkaInfo {
  const info = secureKafka();
  if (!info) throw new Error(`no secure Kafka broker for this test: ${secureKafkaSkipReason()}`);
  return info;
}

/** `describe` for suites that need the secure broker; skipped with the reason in its name when there is none. */
export function describeSecureKafka(name: string, fn: (kafka: SecureKafkaInfo) => void): void {
  const info = secureKafka();
  if (info) describe(name, () => fn(info));
  else describe.skip(`${name} [skipped: ${secureKafkaSkipReason()}]`, () => fn(undefined as unknown as SecureKafkaInfo));
}

/** SASL mechanisms of the secure broker's SASL_SSL listener, as kafkajs names them. */
export type SecureMechanism = 'scram-sha-512' | 'scram-sha-256' | 'plain';

/** kafkajs options (TLS trusting the test CA, SASL) to connect to the secure broker as `user`. */
export function secureClientConfig(user: string, mechanism: SecureMechanism = 'scram-sha-512', info: SecureKafkaInfo = requireSecureKafka()): Partial<KafkaConfig> {
  const u = info.users[user];
  if (!u) throw new Error(`the secure broker has no user ${user}; users: ${Object.keys(info.users).join(', ')}`);
  return { ssl: { ca: [info.caPem] }, sasl: { mechanism, username: u.username, password: u.password } as SASLOptions };
}

/** kafkajs options for the super user `admin`. */
export function adminConfig(info: SecureKafkaInfo = requireSecureKafka()): Partial<KafkaConfig> {
  return secureClientConfig('admin', 'scram-sha-512', info);
}

/** A connected kafkajs admin client of the super user; disconnect it when done. */
export async function secureAdmin(info: SecureKafkaInfo = requireSecureKafka()): Promise<Admin> {
  const admin = quietKafka(info.bootstrap, adminConfig(info)).admin();
  await admin.connect();
  return admin;
}

/** Creates a topic on the secure broker as admin (see {@link createTopic}). */
export function createSecureTopic(name: string, options: CreateTopicOptions = {}, info: SecureKafkaInfo = requireSecureKafka()): Promise<string> {
  return createTopic(info.bootstrap, name, { ...options, client: adminConfig(info) });
}

/** Everything a read_committed reader (the admin) sees in `topic` now. */
export function readCommittedSecure(topic: string, info: SecureKafkaInfo = requireSecureKafka()): Promise<ReadRecord[]> {
  return readAll(info.bootstrap, topic, { isolation: 'read_committed', client: adminConfig(info) });
}

/** Produces `records` to `topic` as admin (plain producer, acks=-1). */
export async function produceSecure(topic: string, records: { key: string | null; value: string | null; partition?: number }[], info: SecureKafkaInfo = requireSecureKafka()): Promise<void> {
  const producer = quietKafka(info.bootstrap, adminConfig(info)).producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: records });
  } finally {
    await producer.disconnect();
  }
}

/** One grant of {@link grantStreamsAcls}; name it in `omit` to leave it out (denial tests). */
export type StreamsGrant =
  | 'read-input'
  | 'write-output'
  | 'internal-topics'
  | 'group'
  | 'transactional-id-write'
  | 'transactional-id-describe'
  | 'idempotent-write';

/** What an application reads, writes and is called. */
export interface StreamsAclOptions {
  applicationId: string;
  inputTopics: string[];
  outputTopics: string[];
  /** Grants to leave out. */
  omit?: StreamsGrant[];
}

/**
 * The least privilege Kafka Streams documents for an application (Kafka docs,
 * "Security" of Kafka Streams, and KIP-447/KIP-679 for exactly-once), as ACL entries for `principal`
 * (`User:<name>`): READ on each input topic, WRITE on each output topic, ALL on
 * topics prefixed `<applicationId>-` (repartition and changelog topics), READ on the
 * group `<applicationId>`, WRITE and DESCRIBE on transactional ids prefixed
 * `<applicationId>-`, IDEMPOTENT_WRITE on the cluster. Leave out grants with `omit`.
 */
export function streamsAcls(principal: string, { applicationId, inputTopics, outputTopics, omit = [] }: StreamsAclOptions): AclEntry[] {
  const allow = { principal, host: '*', permissionType: AclPermissionTypes.ALLOW };
  const literal = ResourcePatternTypes.LITERAL;
  const prefixed = ResourcePatternTypes.PREFIXED;
  const grants: Record<StreamsGrant, AclEntry[]> = {
    'read-input': inputTopics.map((t) => ({ ...allow, resourceType: AclResourceTypes.TOPIC, resourceName: t, resourcePatternType: literal, operation: AclOperationTypes.READ })),
    'write-output': outputTopics.map((t) => ({ ...allow, resourceType: AclResourceTypes.TOPIC, resourceName: t, resourcePatternType: literal, operation: AclOperationTypes.WRITE })),
    'internal-topics': [{ ...allow, resourceType: AclResourceTypes.TOPIC, resourceName: `${applicationId}-`, resourcePatternType: prefixed, operation: AclOperationTypes.ALL }],
    group: [{ ...allow, resourceType: AclResourceTypes.GROUP, resourceName: applicationId, resourcePatternType: literal, operation: AclOperationTypes.READ }],
    'transactional-id-write': [{ ...allow, resourceType: AclResourceTypes.TRANSACTIONAL_ID, resourceName: `${applicationId}-`, resourcePatternType: prefixed, operation: AclOperationTypes.WRITE }],
    'transactional-id-describe': [{ ...allow, resourceType: AclResourceTypes.TRANSACTIONAL_ID, resourceName: `${applicationId}-`, resourcePatternType: prefixed, operation: AclOperationTypes.DESCRIBE }],
    'idempotent-write': [{ ...allow, resourceType: AclResourceTypes.CLUSTER, resourceName: 'kafka-cluster', resourcePatternType: literal, operation: AclOperationTypes.IDEMPOTENT_WRITE }],
  };
  return (Object.keys(grants) as StreamsGrant[]).filter((g) => !omit.includes(g)).flatMap((g) => grants[g]);
}

/**
 * Grants `principal` (`User:<name>`, or a bare user name) the least-privilege ACLs of
 * {@link streamsAcls} on the secure broker, as admin, and waits until the broker applies
 * them. Steps: 1. CreateAcls; 2. poll DescribeAcls until every entry shows.
 * Resolves with the entries created.
 */
export async function grantStreamsAcls(principal: string, options: StreamsAclOptions, info: SecureKafkaInfo = requireSecureKafka()): Promise<AclEntry[]> {
  const acl = streamsAcls(principal.includes(':') ? principal : `User:${principal}`, options);
  const admin = await secureAdmin(info);
  try {
    await admin.createAcls({ acl });
    // 2. Wait until the broker's authorizer applies them (KRaft: CreateAcls answers once the controller
    //    committed them; the broker applies the metadata record a moment later), as Kafka's
    //    TestUtils.waitAndVerifyAcls does: else a fast app start may find its topics hidden.
    await waitFor(async () => {
      const { resources } = await admin.describeAcls({
        principal: acl[0]?.principal,
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      });
      const present = new Set(resources.flatMap((r) => r.acls.map((a) => `${r.resourceType}|${r.resourceName}|${r.resourcePatternType}|${a.operation}`)));
      return acl.every((a) => present.has(`${a.resourceType}|${a.resourceName}|${a.resourcePatternType}|${a.operation}`));
    }, { timeoutMs: 15_000, intervalMs: 50, message: `ACLs of ${principal} applied by the broker` });
  } finally {
    await admin.disconnect();
  }
  return acl;
}
