/**
 * The connection-security keys of {@link KafkaStreamsConfig}: `ssl` and `sasl`
 * (Kafka's `security.protocol`, `ssl.*` and `sasl.*` client settings),
 * validated in one place. Every problem is a {@link ConfigError} naming the key.
 * They are handed to every kafkajs client the app makes (group consumer, task
 * producers, admin, restore/standby/global readers), each with its own copy of
 * the `sasl` object (`src/internal/connection-security.ts`).
 */
import { ConfigError } from '../errors.js';
import { checkSasl, checkSsl, type SaslConfig, type SslConfig } from '../cluster/kafkajs/connection-security.js';

export type { SaslConfig, SaslOAuthBearerConfig, SaslPasswordConfig, SslConfig } from '../cluster/kafkajs/connection-security.js';

/** The connection-security keys as a user writes them. */
export interface ConnectionSecurityConfig {
  /**
   * TLS to the brokers (Kafka's `security.protocol=SSL` / `SASL_SSL`): `true` trusts the system's CAs (e.g.
   * Confluent Cloud, Amazon MSK), or Node's `tls.ConnectionOptions`: `ca` (PEM of the CA that signed the
   * brokers' certificates), `cert` + `key` (mutual TLS: the client certificate and its private key),
   * `servername`, `rejectUnauthorized`. Default: no TLS. Only with `bootstrapServers`.
   */
  ssl?: SslConfig;
  /**
   * SASL login of every connection (Kafka's `sasl.mechanism` + `sasl.jaas.config`):
   * `{ mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512', username, password }` or
   * `{ mechanism: 'oauthbearer', oauthBearerProvider }`. Combine with `ssl` for SASL_SSL. Default: none.
   * The password is never logged nor shown (`[hidden]`). Only with `bootstrapServers`.
   */
  sasl?: SaslConfig;
}

/** The validated connection-security keys. */
export interface ResolvedConnectionSecurityConfig {
  ssl: SslConfig | undefined;
  sasl: SaslConfig | undefined;
}

/** The keys of {@link ConnectionSecurityConfig}. */
export const CONNECTION_SECURITY_KEYS: readonly string[] = ['ssl', 'sasl'];

/** Validates `ssl` and `sasl` of a config object (they apply to `bootstrapServers`; a given `cluster` has its own). */
export function resolveConnectionSecurity(config: Record<string, unknown>): ResolvedConnectionSecurityConfig {
  const ssl = checkSsl(config.ssl);
  const sasl = checkSasl(config.sasl);
  if ((ssl !== undefined || sasl !== undefined) && config.cluster !== undefined) {
    throw new ConfigError(
      `Config '${ssl !== undefined ? 'ssl' : 'sasl'}' applies to 'bootstrapServers' only: with 'cluster' set, give ssl/sasl to createKafkaCluster({ bootstrapServers, ssl, sasl }) instead`,
    );
  }
  return { ssl, sasl };
}

/**
 * The principal the app's connections authenticate as, for messages (`User:alice`; the client certificate's
 * or the OAuth token's), or undefined on an unsecured connection (no SASL, no client certificate).
 */
export function principalOfConfig(config: ResolvedConnectionSecurityConfig): string | undefined {
  if (config.sasl) return config.sasl.mechanism === 'oauthbearer' ? "the OAuth token's principal" : `User:${config.sasl.username}`;
  if (typeof config.ssl === 'object' && config.ssl.cert !== undefined) return "the client certificate's principal";
  return undefined;
}
