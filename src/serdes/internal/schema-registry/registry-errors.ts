/** How a registry's error answer maps to a `SchemaRegistryError` code (see `CLIENT_ERRORS` in src/error-table.ts). */
import type { RegistryAnswerError } from '../../schema-registry/registry-store.js';

/** 404 not found, 409 incompatible, 422 invalid: about the record; 408/429/5xx: unavailable (retriable); else refused (fatal). */
export function answerCode(error: RegistryAnswerError): string {
  if (error.status === 404) return 'SCHEMA_NOT_FOUND';
  if (error.status === 409) return 'SCHEMA_INCOMPATIBLE';
  if (error.status === 422) return 'SCHEMA_INVALID';
  if (error.status === 408 || error.status === 429 || error.status >= 500) return 'SCHEMA_REGISTRY_UNAVAILABLE';
  return 'SCHEMA_REGISTRY_REFUSED';
}

/** The message of any thrown value. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
