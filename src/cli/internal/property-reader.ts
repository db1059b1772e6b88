/**
 * Reads the (already substituted) properties of a config file for the key
 * mapping: remembers which keys were used, so the ones no rule took can be
 * reported, and parses values as Kafka's `ConfigDef` types do (trimmed).
 * Error messages print a value only when its key is not a secret.
 */
import { ConfigError } from '../../errors.js';
import { displayValue } from './secret-keys.js';

/** The properties of one file, with what the mapping used so far. */
export class PropertyReader {
  readonly #props: ReadonlyMap<string, string>;
  readonly #used = new Set<string>();

  constructor(
    props: ReadonlyMap<string, string>,
    /** How messages name the file, e.g. `app.properties`. */
    readonly origin: string,
  ) {
    this.#props = props;
  }

  /** Every key, in file order. */
  keys(): string[] {
    return [...this.#props.keys()];
  }

  has(key: string): boolean {
    return this.#props.has(key);
  }

  /** The trimmed value of `key` (marks it used); undefined when absent. */
  get(key: string): string | undefined {
    const value = this.#props.get(key);
    if (value === undefined) return undefined;
    this.#used.add(key);
    return value.trim();
  }

  /** Marks `key` used without reading it. */
  use(key: string): void {
    this.#used.add(key);
  }

  /** Keys no rule used. */
  unused(): string[] {
    return this.keys().filter((k) => !this.#used.has(k));
  }

  /** A ConfigError about `key` in this file. */
  error(key: string, message: string): ConfigError {
    return new ConfigError(`${key} in ${this.origin}: ${message}`);
  }

  /** `got '<value>'`, or `got [hidden]` for a secret key. */
  got(key: string, value: string): string {
    const shown = displayValue(key, value);
    return shown === value ? `got '${value}'` : `got ${shown}`;
  }

  /** A whole number in [min, max] (Kafka's INT/LONG). */
  int(key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const raw = this.get(key);
    if (raw === undefined) return undefined;
    const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      throw this.error(key, `must be a whole number ${range}, ${this.got(key, raw)}`);
    }
    return n;
  }

  /** `true` or `false`, any case (Kafka's BOOLEAN). */
  bool(key: string): boolean | undefined {
    const raw = this.get(key);
    if (raw === undefined) return undefined;
    const lower = raw.toLowerCase();
    if (lower !== 'true' && lower !== 'false') throw this.error(key, `must be true or false, ${this.got(key, raw)}`);
    return lower === 'true';
  }

  /** One of `allowed` (exact spelling, as Kafka's validators). */
  oneOf<T extends string>(key: string, allowed: readonly T[], hint = ''): T | undefined {
    const raw = this.get(key);
    if (raw === undefined) return undefined;
    if (!allowed.includes(raw as T)) throw this.error(key, `must be one of ${allowed.join(', ')}, ${this.got(key, raw)}${hint}`);
    return raw as T;
  }

  /** A comma-separated list (Kafka's LIST), empty items dropped. */
  list(key: string): string[] | undefined {
    return this.get(key)?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  }

  /** A non-empty string. */
  text(key: string): string | undefined {
    const raw = this.get(key);
    if (raw === '') throw this.error(key, 'must not be empty');
    return raw;
  }
}
