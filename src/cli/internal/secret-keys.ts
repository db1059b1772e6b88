/**
 * Which property keys hold secrets, and how a secret prints: `[hidden]`, as
 * Kafka's `Password` type prints. Kafka's PASSWORD-typed client keys, plus any
 * key naming a password, secret, token, credential, JAAS config or private key.
 */

/** What a secret value prints as. */
export const HIDDEN = '[hidden]';

/** Kafka's client config keys of type PASSWORD. */
const KAFKA_PASSWORD_KEYS: ReadonlySet<string> = new Set([
  'sasl.jaas.config',
  'ssl.key.password',
  'ssl.keystore.password',
  'ssl.keystore.key',
  'ssl.keystore.certificate.chain',
  'ssl.truststore.password',
  'ssl.truststore.certificates',
  'sasl.oauthbearer.assertion.private.key.passphrase',
  'sasl.oauthbearer.client.credentials.client.secret',
  'basic.auth.user.info',
]);

/** True when the value of property `key` must never be printed (prefixes such as `producer.` are looked through). */
export function isSecretKey(key: string): boolean {
  const bare = key.replace(/^(main\.consumer|restore\.consumer|global\.consumer|consumer|producer|admin)\./, '');
  return KAFKA_PASSWORD_KEYS.has(bare) || /password|secret|token|credential(?!s\.source$)|jaas|passphrase|(^|\.)key$|user\.info/i.test(bare);
}

/** `value`, or `[hidden]` when `key` holds a secret. */
export function displayValue(key: string, value: string): string {
  return isSecretKey(key) ? HIDDEN : value;
}
