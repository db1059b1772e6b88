/**
 * The security keys of a Kafka client config, mapped to sluice's `ssl`
 * (`true` or Node's `tls.ConnectionOptions`) and `sasl`
 * (`{ mechanism, username, password }`):
 *
 * 1. `security.protocol` decides which of the two exist (PLAINTEXT: neither).
 * 2. SASL: `sasl.mechanism` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and the
 *    username and password of `sasl.jaas.config`'s Plain/Scram login module.
 * 3. TLS: trust store and key store as PEM (files or inline), or a PKCS12 key
 *    store (Node's `pfx`); JKS is refused with the command converting it.
 *    The result is checked with `tls.createSecureContext` so a wrong key
 *    password or a broken certificate fails here, not at the first connection.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext, type ConnectionOptions } from 'node:tls';
import { parseJaasConfig } from './jaas.js';
import type { PropertyReader } from './property-reader.js';

/** What the security keys map to. */
export interface SecurityConfig {
  ssl?: true | ConnectionOptions;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

const PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const;
const MECHANISMS = { PLAIN: 'plain', 'SCRAM-SHA-256': 'scram-sha-256', 'SCRAM-SHA-512': 'scram-sha-512' } as const;
/** JVM-only TLS knobs: nothing to map, nothing changes for a Node client. */
export const IGNORED_TLS_KEYS: readonly string[] = ['ssl.keymanager.algorithm', 'ssl.trustmanager.algorithm', 'ssl.secure.random.implementation', 'ssl.provider', 'ssl.protocol'];
const TLS_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;

const JKS_TRUST_HELP =
  'sluice (Node.js) reads PEM: convert it with `keytool -exportcert -rfc -keystore truststore.jks -alias <alias> -file ca.pem` ' +
  '(PKCS12: `openssl pkcs12 -in truststore.p12 -nokeys -out ca.pem`), then set ssl.truststore.type=PEM and ssl.truststore.location=ca.pem';
const JKS_KEY_HELP =
  'sluice (Node.js) reads PEM or PKCS12 key stores: convert it with `keytool -importkeystore -srckeystore keystore.jks -destkeystore keystore.p12 -deststoretype PKCS12` ' +
  'and set ssl.keystore.type=PKCS12 (or export key and certificate to PEM and set ssl.keystore.type=PEM)';

/** The PEM blocks of `text` with `label` matching, re-wrapped at 64 columns (inline values lose their line breaks to `\` continuations). */
export function pemBlocks(text: string, label: RegExp): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)) {
    const [, name = '', body = ''] = m;
    if (!label.test(name)) continue;
    const flat = body.replace(/\s+/g, '');
    out.push(`-----BEGIN ${name}-----\n${flat.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${name}-----\n`);
  }
  return out;
}

const CERT = /^(X509 |TRUSTED )?CERTIFICATE$/;
const KEY = /^((ENCRYPTED|RSA|EC) )?PRIVATE KEY$/;

function readFile(r: PropertyReader, key: string, path: string, cwd: string): Buffer {
  try {
    return readFileSync(resolve(cwd, path));
  } catch (error) {
    throw r.error(key, `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** 1. `security.protocol`; 2. SASL; 3. TLS. Every security key is used (marked) here. */
export function mapSecurity(r: PropertyReader, cwd: string): SecurityConfig {
  const protocol = r.oneOf('security.protocol', PROTOCOLS) ?? 'PLAINTEXT';
  const saslKeys = r.keys().filter((k) => k.startsWith('sasl.'));
  const sslKeys = r.keys().filter((k) => k.startsWith('ssl.'));
  const out: SecurityConfig = {};
  if (protocol.startsWith('SASL_')) out.sasl = mapSasl(r);
  else if (saslKeys.length > 0) throw r.error(saslKeys[0] ?? 'sasl', `is set but security.protocol is ${protocol}: set security.protocol=SASL_SSL (or SASL_PLAINTEXT), or remove the sasl.* keys`);
  if (protocol.endsWith('SSL')) out.ssl = mapTls(r, cwd);
  else {
    const meaningful = sslKeys.filter((k) => !IGNORED_TLS_KEYS.includes(k) && k !== 'ssl.endpoint.identification.algorithm');
    if (meaningful.length > 0) throw r.error(meaningful[0] ?? 'ssl', `is set but security.protocol is ${protocol}: set security.protocol=SSL (or SASL_SSL), or remove the ssl.* keys`);
    for (const k of sslKeys) if (!IGNORED_TLS_KEYS.includes(k)) r.use(k); // the ignored ones are reported as such
  }
  return out;
}

function mapSasl(r: PropertyReader): NonNullable<SecurityConfig['sasl']> {
  const raw = r.get('sasl.mechanism');
  if (raw === undefined) {
    throw r.error('security.protocol', "uses SASL but sasl.mechanism is not set (Kafka's default GSSAPI/Kerberos is not supported): set sasl.mechanism=PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512");
  }
  if (raw === 'OAUTHBEARER') {
    throw r.error('sasl.mechanism', "OAUTHBEARER needs code: set sasl: { mechanism: 'oauthbearer', oauthBearerProvider } in the module's config (defineApp) and remove the sasl.* keys from the file");
  }
  if (!(raw in MECHANISMS)) throw r.error('sasl.mechanism', `sluice supports PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 (and OAUTHBEARER in code), got '${raw}'`);
  const mechanism = MECHANISMS[raw as keyof typeof MECHANISMS];
  const jaas = r.get('sasl.jaas.config');
  if (jaas === undefined) throw r.error('sasl.mechanism', `${raw} needs sasl.jaas.config with the username and password (a JAAS file through java.security.auth.login.config is not read)`);
  const entries = parseJaasConfig(jaas, `sasl.jaas.config in ${r.origin}`);
  const entry = entries[0];
  if (entries.length !== 1 || entry === undefined) throw r.error('sasl.jaas.config', `must hold one login module, got ${entries.length}`);
  const expected = mechanism === 'plain' ? 'PlainLoginModule' : 'ScramLoginModule';
  if (!entry.loginModule.endsWith(`.${expected}`)) {
    throw r.error('sasl.jaas.config', `sasl.mechanism=${raw} needs org.apache.kafka.common.security.${mechanism === 'plain' ? 'plain' : 'scram'}.${expected}, got ${entry.loginModule}`);
  }
  for (const option of entry.options.keys()) {
    if (option !== 'username' && option !== 'password') throw r.error('sasl.jaas.config', `sluice has no equivalent of the login module option '${option}' (it reads username and password)`);
  }
  const username = entry.options.get('username');
  const password = entry.options.get('password');
  if (username === undefined || password === undefined) throw r.error('sasl.jaas.config', `the ${expected} needs username="..." and password="..."`);
  for (const k of r.keys()) {
    if (k.startsWith('sasl.') && k !== 'sasl.mechanism' && k !== 'sasl.jaas.config') {
      throw r.error(k, `sluice has no equivalent (it supports sasl.mechanism and sasl.jaas.config; callbacks, Kerberos and OAUTHBEARER settings go in code)`);
    }
  }
  return { mechanism, username, password };
}

function mapTls(r: PropertyReader, cwd: string): true | ConnectionOptions {
  const options: ConnectionOptions = {};
  trustStore(r, cwd, options);
  keyStore(r, cwd, options);
  const algorithm = r.get('ssl.endpoint.identification.algorithm');
  if (algorithm === '') options.checkServerIdentity = () => undefined; // certificate still verified, host name not
  else if (algorithm !== undefined && algorithm.toLowerCase() !== 'https') throw r.error('ssl.endpoint.identification.algorithm', `must be https or empty, got '${algorithm}'`);
  const versions = r.list('ssl.enabled.protocols');
  if (versions !== undefined) {
    const bad = versions.find((v) => !(TLS_VERSIONS as readonly string[]).includes(v));
    if (bad !== undefined || versions.length === 0) throw r.error('ssl.enabled.protocols', `must list TLS versions (${TLS_VERSIONS.join(', ')}), got '${versions.join(',')}'`);
    const sorted = [...versions].sort((a, b) => (TLS_VERSIONS as readonly string[]).indexOf(a) - (TLS_VERSIONS as readonly string[]).indexOf(b));
    options.minVersion = sorted[0] as ConnectionOptions['minVersion'];
    options.maxVersion = sorted[sorted.length - 1] as ConnectionOptions['maxVersion'];
  }
  if (r.has('ssl.cipher.suites')) throw r.error('ssl.cipher.suites', "sluice has no equivalent in the file (Java cipher suite names): set ssl: { ciphers: '<OpenSSL cipher list>' } in the module's config");
  const unknown = r.unused().find((k) => k.startsWith('ssl.') && !IGNORED_TLS_KEYS.includes(k));
  if (unknown !== undefined) throw r.error(unknown, 'sluice has no equivalent (see docs/migrating-from-kafka-streams.md for the ssl.* keys it reads)');
  if (Object.keys(options).length === 0) return true;
  try {
    createSecureContext(options);
  } catch (error) {
    throw r.error('ssl.*', `the TLS settings cannot be used: ${(error as Error).message.split('\n')[0] ?? ''} (check the PEM blocks, ssl.key.password / ssl.keystore.password)`);
  }
  return options;
}

function trustStore(r: PropertyReader, cwd: string, options: ConnectionOptions): void {
  const type = r.get('ssl.truststore.type')?.toUpperCase();
  const location = r.get('ssl.truststore.location');
  const inline = r.get('ssl.truststore.certificates');
  if (r.get('ssl.truststore.password') !== undefined && (type === 'PEM' || type === undefined)) {
    throw r.error('ssl.truststore.password', 'cannot be used with a PEM trust store (Kafka refuses it too): remove it');
  }
  if (type !== undefined && type !== 'PEM') throw r.error('ssl.truststore.type', `${type} stores are Java key stores: ${JKS_TRUST_HELP}`);
  if (location !== undefined && inline !== undefined) throw r.error('ssl.truststore.location', 'and ssl.truststore.certificates are both set: keep one');
  if (location === undefined && inline === undefined) return; // the system's trusted CAs, as Node's default
  const text = inline ?? readFile(r, 'ssl.truststore.location', location ?? '', cwd).toString('latin1');
  const certs = pemBlocks(text, CERT);
  if (certs.length === 0) {
    const key = inline !== undefined ? 'ssl.truststore.certificates' : 'ssl.truststore.location';
    throw r.error(key, `holds no PEM certificate (-----BEGIN CERTIFICATE-----)${inline === undefined ? `; a JKS or PKCS12 file? ${JKS_TRUST_HELP}` : ''}`);
  }
  options.ca = certs.join('');
}

function keyStore(r: PropertyReader, cwd: string, options: ConnectionOptions): void {
  const type = r.get('ssl.keystore.type')?.toUpperCase();
  const location = r.get('ssl.keystore.location');
  const chain = r.get('ssl.keystore.certificate.chain');
  const inlineKey = r.get('ssl.keystore.key');
  const keyPassword = r.get('ssl.key.password');
  const storePassword = r.get('ssl.keystore.password');
  if (location === undefined && chain === undefined && inlineKey === undefined) {
    if (keyPassword !== undefined || storePassword !== undefined) throw r.error(keyPassword !== undefined ? 'ssl.key.password' : 'ssl.keystore.password', 'is set but no key store is: set ssl.keystore.location (or ssl.keystore.key and ssl.keystore.certificate.chain)');
    return;
  }
  if (type === 'JKS') throw r.error('ssl.keystore.type', `JKS: ${JKS_KEY_HELP}`);
  if (type !== undefined && type !== 'PEM' && type !== 'PKCS12') throw r.error('ssl.keystore.type', `must be PEM or PKCS12 (sluice reads no ${type} stores): ${JKS_KEY_HELP}`);
  if (location !== undefined && (chain !== undefined || inlineKey !== undefined)) throw r.error('ssl.keystore.location', 'and ssl.keystore.key / ssl.keystore.certificate.chain are both set: keep one');
  if (location === undefined) {
    if (chain === undefined || inlineKey === undefined) throw r.error(chain === undefined ? 'ssl.keystore.key' : 'ssl.keystore.certificate.chain', 'needs ssl.keystore.key and ssl.keystore.certificate.chain together');
    if (type !== undefined && type !== 'PEM') throw r.error('ssl.keystore.type', 'must be PEM with ssl.keystore.key and ssl.keystore.certificate.chain');
    pemKeyPair(r, inlineKey, chain, keyPassword, storePassword, options);
    return;
  }
  const bytes = readFile(r, 'ssl.keystore.location', location, cwd);
  const text = bytes.toString('latin1');
  const isPem = text.includes('-----BEGIN ');
  if (type === 'PEM' || (type === undefined && isPem)) {
    pemKeyPair(r, text, text, keyPassword, storePassword, options);
    return;
  }
  if (type === undefined && bytes.readUInt32BE(0) === 0xfeedfeed) throw r.error('ssl.keystore.location', `is a JKS key store: ${JKS_KEY_HELP}`);
  // PKCS12 (also what keytool writes by default since Java 9, whatever the file is called)
  options.pfx = bytes;
  const passphrase = storePassword ?? keyPassword;
  if (passphrase !== undefined) options.passphrase = passphrase;
}

function pemKeyPair(r: PropertyReader, keyText: string, chainText: string, keyPassword: string | undefined, storePassword: string | undefined, options: ConnectionOptions): void {
  if (storePassword !== undefined) throw r.error('ssl.keystore.password', 'cannot be used with a PEM key store, only ssl.key.password (Kafka refuses it too)');
  const keys = pemBlocks(keyText, KEY);
  const certs = pemBlocks(chainText, CERT);
  if (keys.length !== 1) throw r.error('ssl.keystore.key', `needs exactly one PEM private key (-----BEGIN PRIVATE KEY----- or ENCRYPTED PRIVATE KEY), found ${keys.length}`);
  if (certs.length === 0) throw r.error('ssl.keystore.certificate.chain', 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  options.key = keys[0];
  options.cert = certs.join('');
  if (keyPassword !== undefined) options.passphrase = keyPassword;
}
