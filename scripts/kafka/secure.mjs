// The secure variant of the local broker (`node scripts/kafka.mjs start --secure`):
// what a company's Kafka looks like to a client, on 127.0.0.1.
// - CLIENT listener, SASL_SSL: SCRAM-SHA-512, SCRAM-SHA-256 and PLAIN (Confluent
//   Cloud style), plus OAUTHBEARER with Kafka's *unsecured* (unsigned-token)
//   validator, only to exercise a client's token provider;
// - MTLS listener, SSL with ssl.client.auth=required: the principal is the CN of
//   the client certificate (ssl.principal.mapping.rules);
// - CONTROLLER listener and inter-broker traffic over mutual TLS with the broker's
//   own certificate (principal `sluice-broker`, a super user): no anonymous port;
// - StandardAuthorizer, allow.everyone.if.no.acl.found=false, super user `admin`:
//   every other principal can do only what an ACL grants it.
// SCRAM users (random passwords per start) are added at format time; PLAIN knows
// the same users and passwords. Everything a client needs is recorded under
// `secure` in the run directory's state.json (see secureState()).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BROKER_CN, CLIENT_CN, generateCertificates } from './certs.mjs';
import { libsDir, repoRoot } from './paths.mjs';
import { javaCommand, KafkaSetupError } from './prereq.mjs';

/** Default client (SASL_SSL) port of the secure broker; the mTLS listener takes the next free port. */
export const DEFAULT_SECURE_PORT = 9093;

/** The SCRAM/PLAIN users created at each start: `admin` (super user) and test principals without any ACL. */
export const SECURE_USERS = ['admin', 'app', 'contract', 'alice', 'bob', 'carol', 'dave'];

/** SASL mechanisms of the CLIENT listener. */
export const SASL_MECHANISMS = ['SCRAM-SHA-512', 'SCRAM-SHA-256', 'PLAIN', 'OAUTHBEARER'];

const SCRAM = ['SCRAM-SHA-512', 'SCRAM-SHA-256'];

/** Folder of the certificates and client property files inside a run directory. */
export function tlsDir(runDirectory) {
  return join(runDirectory, 'tls');
}

/**
 * Prepares a secure start in `runDirectory`.
 * Steps: 1. generate the certificates; 2. choose a random password per user;
 * 3. render the listener/TLS/SASL/authorizer properties; 4. the `--add-scram`
 * arguments of the storage format; 5. write admin.properties (for Kafka's Java
 * tools) and return the state a client needs.
 * @param {{ runDirectory: string, port: number, mtlsPort: number, controllerPort: number }} options
 */
export function prepareSecure({ runDirectory, port, mtlsPort, controllerPort }) {
  const dir = tlsDir(runDirectory);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const certs = generateCertificates(dir);
  const users = Object.fromEntries(SECURE_USERS.map((name) => [name, { username: name, password: randomBytes(12).toString('hex') }]));
  const plainUsers = Object.values(users).map((u) => `user_${u.username}="${u.password}"`).join(' ');
  const props = {
    listeners: `CLIENT://127.0.0.1:${port},MTLS://127.0.0.1:${mtlsPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `CLIENT://127.0.0.1:${port},MTLS://127.0.0.1:${mtlsPort}`,
    'listener.security.protocol.map': 'CLIENT:SASL_SSL,MTLS:SSL,CONTROLLER:SSL',
    'inter.broker.listener.name': 'MTLS',
    'ssl.keystore.type': 'PEM',
    'ssl.keystore.location': certs.brokerKeystorePath,
    'ssl.truststore.type': 'PEM',
    'ssl.truststore.location': certs.caPath,
    'listener.name.mtls.ssl.client.auth': 'required',
    'listener.name.controller.ssl.client.auth': 'required',
    'ssl.principal.mapping.rules': 'RULE:^CN=(.*?),O=sluice$/$1/,DEFAULT',
    'sasl.enabled.mechanisms': SASL_MECHANISMS.join(','),
    'listener.name.client.scram-sha-512.sasl.jaas.config': 'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'listener.name.client.scram-sha-256.sasl.jaas.config': 'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'listener.name.client.plain.sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`,
    'listener.name.client.oauthbearer.sasl.jaas.config':
      'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="sluice-broker";',
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    'allow.everyone.if.no.acl.found': 'false',
    'super.users': `User:admin;User:${BROKER_CN}`,
  };
  const formatArgs = Object.values(users).flatMap((u) => SCRAM.flatMap((m) => ['--add-scram', `${m}=[name=${u.username},password=${u.password}]`]));
  const adminProperties = join(dir, 'admin.properties');
  writeFileSync(adminProperties, clientProperties(`127.0.0.1:${port}`, certs.caPath, users.admin), { mode: 0o600 });
  const secure = {
    bootstrap: `127.0.0.1:${port}`,
    mtlsBootstrap: `127.0.0.1:${mtlsPort}`,
    mtlsPort,
    mechanisms: SASL_MECHANISMS,
    caPath: certs.caPath,
    clientCertPath: certs.clientCertPath,
    clientKeyPath: certs.clientKeyPath,
    clientPrincipal: `User:${CLIENT_CN}`,
    untrustedCaPath: certs.untrustedCaPath,
    adminProperties,
    statePath: join(runDirectory, 'state.json'),
    users,
  };
  return { props, formatArgs, secure };
}

function clientProperties(bootstrap, caPath, admin) {
  return [
    `bootstrap.servers=${bootstrap}`,
    'security.protocol=SASL_SSL',
    'sasl.mechanism=SCRAM-SHA-512',
    `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${admin.username}" password="${admin.password}";`,
    'ssl.truststore.type=PEM',
    `ssl.truststore.location=${caPath}`,
    '',
  ].join('\n');
}

/** kafkajs client options for the admin user of a secure broker (state.secure): TLS with the test CA, SCRAM-SHA-512. */
export function adminClientConfig(secure) {
  const admin = secure.users.admin;
  return {
    ssl: { ca: [readFileSync(secure.caPath, 'utf8')] },
    sasl: { mechanism: 'scram-sha-512', username: admin.username, password: admin.password },
  };
}

/** Removes the certificates, keys and property files of a secure run directory. */
export function removeSecureFiles(runDirectory) {
  rmSync(tlsDir(runDirectory), { recursive: true, force: true });
}

/**
 * Adds (or changes the password of) a SCRAM user on a running secure broker, as the
 * admin user, with Kafka's Admin.alterUserScramCredentials (a small Java program run
 * from source: Kafka's ConfigCommand lives in kafka-tools, which is not fetched).
 * Needs a JDK (javac's compiler module). Takes a few seconds (one JVM).
 * @param {{ secure: object, username: string, password: string, mechanism?: 'SCRAM-SHA-512'|'SCRAM-SHA-256', version: string }} options
 */
export function addScramUser({ secure, username, password, mechanism = 'SCRAM-SHA-512', version }) {
  const program = join(repoRoot, 'scripts', 'kafka', 'AddScramUser.java');
  const res = spawnSync(javaCommand(), ['-Xmx128m', '-cp', `${libsDir(version)}/*`, program, secure.adminProperties, username, mechanism], {
    input: `${password}\n`,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (res.status !== 0) {
    throw new KafkaSetupError(`adding SCRAM user ${username} failed (exit ${res.status}): ${(res.stderr || res.stdout).split('\n').slice(0, 5).join('\n')}`);
  }
}
