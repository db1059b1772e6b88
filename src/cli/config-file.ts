/**
 * `sluice run --config app.properties`: a Kafka Streams properties file as the
 * app's configuration.
 *
 * 1. Read the file (UTF-8, else ISO-8859-1) and parse it as `java.util.Properties.load`.
 * 2. Resolve `${env:NAME}`, `${file:path:key}`, `${directory:path:name}` (Kafka's config providers).
 * 3. Map the Kafka keys to sluice's config keys (internal/properties-map.ts); a
 *    key without an equivalent is an error naming it.
 *
 * Precedence (lowest first): the module's `config` (defineApp), this file,
 * environment variables (`SLUICE_*`), command-line flags.
 * Secrets (passwords, keys, `sasl.jaas.config`) print as `[hidden]`.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { providersOf, transformConfig } from './internal/config-providers.js';
import { decodePropertiesFile, parseProperties, PropertiesSyntaxError } from './internal/java-properties.js';
import { mapProperties } from './internal/properties-map.js';
import { PropertyReader } from './internal/property-reader.js';
import { displayValue } from './internal/secret-keys.js';

/** A config file, read and mapped. */
export interface ConfigFile {
  /** The path as given (for messages). */
  path: string;
  /** sluice config keys from the file (loosely typed: it may hold keys such as `ssl` and `producerConfig`). */
  config: Record<string, unknown>;
  /** For each sluice key, the property that set it. */
  sources: Map<string, string>;
  /** For each property that set a sluice key, that key. */
  targets: Map<string, string>;
  /** Keys accepted without effect, with the reason. */
  ignored: { key: string; reason: string }[];
  /** `topology.optimization`, applied when the CLI builds the module's StreamsBuilder. */
  topologyOptimization?: string;
  /** Every property as it may be printed: secrets as `[hidden]`. */
  display: Record<string, string>;
}

/**
 * Reads and maps the properties file `path` (relative to `cwd`), resolving
 * variables against `env`. Throws a one-line {@link ConfigError} naming the
 * file, and the key and line where one is known; never a secret value.
 */
export function loadConfigFile(path: string, env: Record<string, string | undefined>, cwd: string): ConfigFile {
  const absolute = resolve(cwd, path);
  const origin = relative(cwd, absolute).startsWith('..') ? absolute : relative(cwd, absolute) || path;
  // 1. Read and parse.
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    throw new ConfigError(`--config: cannot read ${absolute}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (pass the path of a Java-style .properties file)`);
  }
  let props: Map<string, string>;
  try {
    props = parseProperties(decodePropertiesFile(bytes));
  } catch (error) {
    if (error instanceof PropertiesSyntaxError) throw new ConfigError(`${origin}:${error.line}: ${error.message}`);
    throw error;
  }
  // 2. Variables (not in the provider declarations themselves).
  const providers = providersOf(props, env, cwd);
  const plain = new Map([...props].filter(([k]) => k !== 'config.providers' && !k.startsWith('config.providers.')));
  const { data } = transformConfig(plain, providers, origin);
  for (const [k, v] of props) if (!plain.has(k)) data.set(k, v);
  // 3. Map; relative file locations (trust and key stores) are resolved against the working directory, as Java does.
  const mapped = mapProperties(new PropertyReader(data, origin), cwd);
  const display: Record<string, string> = {};
  for (const [k, v] of data) display[k] = displayValue(k, v.trim());
  return { path: origin, ...mapped, display };
}

/** The property that set sluice key `key`, for messages: `' (from <property> in <file>)'`, or `''`. */
export function fileSourceOf(file: ConfigFile | undefined, key: string): string {
  const property = file?.sources.get(key);
  return property === undefined || file === undefined ? '' : ` (set by ${property} in ${file.path})`;
}

/**
 * The file as `sluice describe --config` prints it: each property (secrets as
 * `[hidden]`) with the sluice key it sets, or why it is ignored.
 */
export function describeConfigFile(file: ConfigFile): string {
  const ignored = new Map(file.ignored.map((i) => [i.key, i.reason]));
  const lines = Object.entries(file.display).map(([key, value]) => {
    const target =
      file.targets.get(key) ??
      (ignored.has(key) ? undefined : key.startsWith('config.providers') ? '(config provider)' : /^(ssl\.|security\.protocol)/.test(key) ? 'ssl' : key.startsWith('sasl.') ? 'sasl' : '(checked, nothing to set)');
    return `  ${key}=${value}  ${target === undefined ? `(ignored: ${ignored.get(key) ?? ''})` : `-> ${target}`}`;
  });
  return `Config from ${file.path} (secrets shown as [hidden]):\n${lines.join('\n')}\n`;
}

/** Merges `file` over the module's config: the file wins; a file that names brokers replaces a module's `cluster`. */
export function mergeFileConfig<T extends object>(moduleConfig: T, file: ConfigFile | undefined): T {
  if (file === undefined) return moduleConfig;
  const merged = { ...moduleConfig, ...file.config } as Record<string, unknown>;
  if (file.config.bootstrapServers !== undefined) delete merged.cluster;
  return merged as T;
}

