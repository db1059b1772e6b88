/**
 * TLS and SASL settings of the connections to Kafka (`ssl`, `sasl`): their
 * types, their validation and the two rules every client follows:
 *
 * - **one `sasl` object per kafkajs client** ({@link copySasl}): kafkajs writes
 *   the login closure (`authenticationProvider`) onto the sasl object it is
 *   given and re-uses it for every later connection, so two clients sharing
 *   one object (or a reused object whose password changed) would log in with
 *   whatever the first one captured;
 * - **secrets never printed** ({@link hideSecrets}): passwords, private keys,
 *   passphrases, pfx bundles and OAuth tokens show as `[hidden]` wherever a
 *   config is logged, described or serialised.
 *
 * Part of the kafkajs adapter (`createKafkaCluster`); the runtime
 * config (`src/runtime/config-connection.ts`) and the CLI validate with it too.
 */
import type { ConnectionOptions } from 'node:tls';
import { ConfigError } from '../../errors.js';

/** `true` (TLS with the system's trusted CAs) or Node's `tls.ConnectionOptions` (`ca`, `cert`, `key`, `servername`, `rejectUnauthorized`, ...). */
export type SslConfig = boolean | ConnectionOptions;

/** SASL with a username and password: PLAIN (e.g. Confluent Cloud API keys) or SCRAM (e.g. Amazon MSK). */
export interface SaslPasswordConfig {
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
}

/** SASL/OAUTHBEARER: `oauthBearerProvider` is called for every login and returns the token (`{ value }`). */
export interface SaslOAuthBearerConfig {
  mechanism: 'oauthbearer';
  oauthBearerProvider: () => Promise<{ value: string }>;
}

/** The `sasl` setting: which SASL mechanism and credentials every connection logs in with. */
export type SaslConfig = SaslPasswordConfig | SaslOAuthBearerConfig;

/** The SASL mechanisms sluice accepts (kafkajs' built-in ones, minus AWS IAM). */
export const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer'] as const;

/** What a printed secret is replaced with. */
export const HIDDEN = '[hidden]';

const SSL_KEYS_OF_TYPE: Readonly<Record<string, string>> = {
  servername: 'string',
  rejectUnauthorized: 'boolean',
  passphrase: 'string',
};

/** Validates `ssl` (`key` names the config key in messages, e.g. `'ssl'`). */
export function checkSsl(value: unknown, key = 'ssl'): SslConfig | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(
      `Config '${key}' must be true (TLS with the system's trusted CAs) or an object of Node's tls.ConnectionOptions ` +
        `({ ca, cert, key, servername, rejectUnauthorized }), got ${typeName(value)}`,
    );
  }
  const options = value as Record<string, unknown>;
  for (const [name, type] of Object.entries(SSL_KEYS_OF_TYPE)) {
    if (options[name] !== undefined && typeof options[name] !== type) {
      throw new ConfigError(`Config '${key}.${name}' must be a ${type}, got ${typeName(options[name])}`);
    }
  }
  for (const name of ['ca', 'cert', 'key']) {
    if (options[name] !== undefined && !isPemLike(options[name])) {
      throw new ConfigError(
        `Config '${key}.${name}' must be PEM text or a Buffer (or an array of them), e.g. fs.readFileSync('${name === 'ca' ? 'ca.pem' : `client-${name}.pem`}'), got ${typeName(options[name])}`,
      );
    }
  }
  if ((options.cert === undefined) !== (options.key === undefined) && options.pfx === undefined) {
    throw new ConfigError(`Config '${key}': mutual TLS needs both '${key}.cert' (the client certificate) and '${key}.key' (its private key); only ${options.cert === undefined ? 'key' : 'cert'} is set`);
  }
  return value as ConnectionOptions;
}

/** Validates `sasl`; an unknown mechanism lists the allowed ones, a missing username or password names it (never echoes a secret). */
export function checkSasl(value: unknown, key = 'sasl'): SaslConfig | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`Config '${key}' must be an object { mechanism, username, password } (or { mechanism: 'oauthbearer', oauthBearerProvider }), got ${typeName(value)}`);
  }
  const sasl = value as Record<string, unknown>;
  const mechanism = typeof sasl.mechanism === 'string' ? sasl.mechanism.toLowerCase() : sasl.mechanism;
  if (!SASL_MECHANISMS.includes(mechanism as (typeof SASL_MECHANISMS)[number])) {
    const got = typeof sasl.mechanism === 'string' ? JSON.stringify(sasl.mechanism) : typeName(sasl.mechanism);
    throw new ConfigError(`Config '${key}.mechanism' must be one of ${SASL_MECHANISMS.map((m) => `'${m}'`).join(', ')}, got ${got}`);
  }
  if (mechanism === 'oauthbearer') {
    if (typeof sasl.oauthBearerProvider !== 'function') {
      throw new ConfigError(`Config '${key}.oauthBearerProvider' must be a function returning a promise of { value: token } (mechanism 'oauthbearer')`);
    }
    return { mechanism, oauthBearerProvider: sasl.oauthBearerProvider as SaslOAuthBearerConfig['oauthBearerProvider'] };
  }
  if (typeof sasl.username !== 'string' || sasl.username === '') {
    throw new ConfigError(`Config '${key}.username' must be a non-empty string (the SASL ${String(mechanism).toUpperCase()} user), got ${typeName(sasl.username)}`);
  }
  if (typeof sasl.password !== 'string' || sasl.password === '') {
    const got = sasl.password === '' ? 'an empty string' : typeName(sasl.password);
    throw new ConfigError(`Config '${key}.password' must be a non-empty string (the password of SASL user '${sasl.username}'), got ${got}`);
  }
  return { mechanism: mechanism as SaslPasswordConfig['mechanism'], username: sasl.username, password: sasl.password };
}

/**
 * A fresh copy of `sasl` for one kafkajs client (see the module comment): kafkajs stores its login closure on
 * the object it is given, so no two clients may share one.
 */
export function copySasl(sasl: SaslConfig): SaslConfig {
  return sasl.mechanism === 'oauthbearer'
    ? { mechanism: 'oauthbearer', oauthBearerProvider: sasl.oauthBearerProvider }
    : { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password };
}

/**
 * A copy of `value` safe to print: at any depth, `password`, `passphrase` and `pfx` become `[hidden]`, an
 * `ssl` object shows its `key` as `[hidden]` and `ca`/`cert` as their size, a `sasl` object keeps only
 * `mechanism` and `username`. Buffers show as their size; cycles and depth are bounded.
 */
export function hideSecrets(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  if (seen.has(value) || depth > 6) return '[...]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => hideSecrets(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    if (ALWAYS_SECRET.has(name)) out[name] = HIDDEN;
    else if (name === 'sasl' && typeof inner === 'object' && inner !== null) out[name] = hideSasl(inner as Record<string, unknown>);
    else if (name === 'ssl' && typeof inner === 'object' && inner !== null) out[name] = hideSsl(inner as Record<string, unknown>, depth, seen);
    else out[name] = hideSecrets(inner, depth + 1, seen);
  }
  return out;
}

/** Keys that are secrets wherever they appear. */
const ALWAYS_SECRET: ReadonlySet<string> = new Set(['password', 'passphrase', 'pfx', 'oauthBearerProvider', 'authenticationProvider']);

function hideSasl(sasl: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(sasl)) {
    if (inner === undefined) continue;
    out[name] = name === 'mechanism' || name === 'username' ? inner : HIDDEN;
  }
  return out;
}

function hideSsl(ssl: Record<string, unknown>, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(ssl)) {
    if (inner === undefined) continue;
    if (name === 'key' || ALWAYS_SECRET.has(name)) out[name] = HIDDEN;
    else if (name === 'ca' || name === 'cert') out[name] = describePem(inner);
    else out[name] = hideSecrets(inner, depth + 1, seen);
  }
  return out;
}

/** The security settings in one line for messages and logs: `SASL_SSL (scram-sha-512, user 'alice')`, never a secret. */
export function describeSecurity(ssl: SslConfig | undefined, sasl: SaslConfig | undefined): string {
  const protocol = `${sasl ? 'SASL_' : ''}${ssl ? 'SSL' : 'PLAINTEXT'}`;
  if (!sasl) return protocol;
  return sasl.mechanism === 'oauthbearer' ? `${protocol} (oauthbearer)` : `${protocol} (${sasl.mechanism}, user '${sasl.username}')`;
}

function isPemLike(value: unknown): boolean {
  const one = (v: unknown) => typeof v === 'string' || Buffer.isBuffer(v);
  return one(value) || (Array.isArray(value) && value.length > 0 && value.every(one));
}

function describePem(value: unknown): string {
  const list = Array.isArray(value) ? value : [value];
  const bytes = list.reduce<number>((sum, v) => sum + (typeof v === 'string' ? Buffer.byteLength(v) : Buffer.isBuffer(v) ? v.length : 0), 0);
  return `<${list.length} PEM item(s), ${bytes} bytes>`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${typeof value === 'function' ? '' : String(value)}`.trim();
}
