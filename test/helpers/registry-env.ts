/**
 * Which real Schema Registry the tests talk to, as decided once by the vitest global setup
 * (test/setup/registry-setup.ts), and `describeRegistry` for suites that need one.
 */
import { describe, inject } from 'vitest';

function injected<K extends 'schemaRegistryUrl' | 'schemaRegistrySkipReason'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined; // not running under vitest's global setup
  }
}

/**
 * Confluent-compatible base URL of the real registry for this run (Apicurio's
 * `http://127.0.0.1:<port>/apis/ccompat/v7` when the setup started one), or `undefined`.
 * Source, in order: the global setup's `inject('schemaRegistryUrl')`, then `SCHEMA_REGISTRY_URL`
 * when the setup did not run.
 */
export function schemaRegistryUrl(): string | undefined {
  const url = injected('schemaRegistryUrl');
  if (url) return url;
  if (injected('schemaRegistrySkipReason')) return undefined;
  return process.env.SCHEMA_REGISTRY_URL?.trim().replace(/\/$/, '') || undefined;
}

/** Why registry suites are skipped, or `undefined` when a registry is available. */
export function schemaRegistrySkipReason(): string | undefined {
  if (schemaRegistryUrl()) return undefined;
  return injected('schemaRegistrySkipReason') ?? 'no Schema Registry: set SCHEMA_REGISTRY_URL or REQUIRE_REGISTRY=1';
}

/**
 * `describe` for suites that need a real Schema Registry; without one the suite is registered as
 * skipped with the reason in its name. Selecting a file that calls it makes the global setup start
 * Apicurio Registry (test/setup/registry-setup.ts). `fn` gets the base URL ('' when skipped).
 */
export function describeRegistry(name: string, fn: (url: string) => void): void {
  const url = schemaRegistryUrl();
  if (url) describe(name, () => fn(url));
  else describe.skip(`${name} [skipped: ${schemaRegistrySkipReason()}]`, () => fn(''));
}
