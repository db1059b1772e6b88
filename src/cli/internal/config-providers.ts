/**
 * Variables in property values, as Kafka's `ConfigTransformer` resolves them:
 * `${provider:[path:]key}` with the providers Kafka ships:
 *
 * - `env` (`EnvVarConfigProvider`): `${env:NAME}` is the environment variable
 *   NAME; a path is an error; param `allowlist.pattern` (a regular expression
 *   the whole name must match).
 * - `file` (`FileConfigProvider`): `${file:/etc/kafka/secrets.properties:key}`
 *   is `key` of that properties file; param `allowed.paths`.
 * - `directory` (`DirectoryConfigProvider`): `${directory:/var/run/secrets:name}`
 *   is the content of the file `name` in that directory (e.g. a mounted
 *   Kubernetes secret); param `allowed.paths`.
 *
 * Kafka only resolves providers the file declares (`config.providers=env`,
 * `config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider`).
 * sluice accepts and checks those keys, and also resolves `env`, `file` and
 * `directory` without them. Where Kafka leaves an unresolved variable as it
 * is, sluice stops with an error naming the variable and the key (never the value).
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { ConfigError } from '../../errors.js';
import { decodePropertiesFile, parseProperties } from './java-properties.js';

/** Kafka's `ConfigTransformer.DEFAULT_PATTERN`: `${provider:[path:]key}`. */
const VARIABLE = /\$\{([^}]*?):(([^}]*?):)?([^}]*?)\}/g;

/** A config provider: the values of `keys` at `path` (a key it does not know is left out). */
export interface ConfigProvider {
  /** Which of Kafka's providers this is (for messages). */
  readonly kind?: 'env' | 'file' | 'directory';
  get(path: string, keys: ReadonlySet<string>): Map<string, string>;
}

/** The provider classes sluice implements, by Kafka class name. */
export const PROVIDER_CLASSES: Readonly<Record<string, 'env' | 'file' | 'directory'>> = {
  'org.apache.kafka.common.config.provider.EnvVarConfigProvider': 'env',
  'org.apache.kafka.common.config.provider.FileConfigProvider': 'file',
  'org.apache.kafka.common.config.provider.DirectoryConfigProvider': 'directory',
};

const PARAMS: Readonly<Record<'env' | 'file' | 'directory', string>> = { env: 'allowlist.pattern', file: 'allowed.paths', directory: 'allowed.paths' };

/**
 * Kafka's `AllowedPaths`: `value` is a comma-separated list of absolute, existing paths; the returned
 * function gives the path to read (normalised) when it lies under one of them, else undefined.
 * Without a list, every path is allowed (and returned as given, resolved against `cwd`).
 */
export function allowedPaths(value: string | undefined, key: string, cwd: string): (path: string) => string | undefined {
  if (value === undefined || value === '') return (path) => resolve(cwd, path);
  const roots = value.split(',').map((raw) => {
    const root = normalize(raw);
    if (!isAbsolute(root)) throw new ConfigError(`${key}: Path ${root} is not absolute`);
    try {
      statSync(root);
    } catch {
      throw new ConfigError(`${key}: Path ${root} does not exist`);
    }
    return root;
  });
  return (path) => {
    const p = normalize(resolve(cwd, path));
    return roots.some((root) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep)) ? p : undefined;
  };
}

/** `EnvVarConfigProvider` over `env`. */
export function envProvider(env: Record<string, string | undefined>, allowlist?: string, where = 'config.providers.env.param.allowlist.pattern'): ConfigProvider {
  let pattern: RegExp | undefined;
  try {
    pattern = allowlist === undefined ? undefined : new RegExp(`^(?:${allowlist})$`);
  } catch (error) {
    throw new ConfigError(`${where} is not a valid regular expression: ${(error as Error).message}`);
  }
  return {
    kind: 'env',
    get(path, keys) {
      if (path !== '') throw new ConfigError(`Path is not supported for EnvVarConfigProvider, invalid value '${path}'`);
      const out = new Map<string, string>();
      for (const key of keys) {
        const value = env[key];
        if (value !== undefined && (pattern === undefined || pattern.test(key))) out.set(key, value);
      }
      return out;
    },
  };
}

/** `FileConfigProvider`: keys of a properties file. */
export function fileProvider(allowed?: string, where = 'config.providers.file.param.allowed.paths', cwd = process.cwd()): ConfigProvider {
  const check = allowedPaths(allowed, where, cwd);
  return {
    kind: 'file',
    get(path, keys) {
      const out = new Map<string, string>();
      const file = path === '' ? undefined : check(path);
      if (file === undefined) return out;
      let props: Map<string, string>;
      try {
        props = parseProperties(decodePropertiesFile(readFileSync(file)));
      } catch (error) {
        throw new ConfigError(`Could not read properties from file ${path}: ${(error as Error).message}`);
      }
      for (const key of keys) {
        const value = props.get(key);
        if (value !== undefined) out.set(key, value);
      }
      return out;
    },
  };
}

/** `DirectoryConfigProvider`: the content of the regular files named by the keys. */
export function directoryProvider(allowed?: string, where = 'config.providers.directory.param.allowed.paths', cwd = process.cwd()): ConfigProvider {
  const check = allowedPaths(allowed, where, cwd);
  return {
    kind: 'directory',
    get(path, keys) {
      const out = new Map<string, string>();
      const dir = path === '' ? undefined : check(path);
      if (dir === undefined) return out;
      for (const key of keys) {
        const file = join(dir, key);
        if (key.includes('/') || key.includes(sep)) continue;
        try {
          if (statSync(file).isFile()) out.set(key, readFileSync(file, 'utf8'));
        } catch {
          // missing: left out, reported by the caller
        }
      }
      return out;
    },
  };
}

/**
 * The providers a properties map declares (`config.providers`, `config.providers.<name>.class`,
 * `config.providers.<name>.param.<p>`), over the defaults `env`, `file` and `directory`.
 * Every `config.providers*` key is checked; an unknown class or parameter is an error naming the key.
 */
export function providersOf(props: ReadonlyMap<string, string>, env: Record<string, string | undefined>, cwd = process.cwd()): Map<string, ConfigProvider> {
  const param = (name: string, p: string): string | undefined => props.get(`config.providers.${name}.param.${p}`)?.trim();
  const kinds = new Map<string, 'env' | 'file' | 'directory'>([['env', 'env'], ['file', 'file'], ['directory', 'directory']]);
  const declared = (props.get('config.providers') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of declared) {
    const classKey = `config.providers.${name}.class`;
    const cls = props.get(classKey)?.trim();
    if (cls === undefined) throw new ConfigError(`config.providers names '${name}' but ${classKey} is not set: set it to one of ${Object.keys(PROVIDER_CLASSES).join(', ')}`);
    const kind = PROVIDER_CLASSES[cls];
    if (kind === undefined) {
      throw new ConfigError(`${classKey}: sluice has no equivalent of config provider ${cls}; it implements ${Object.keys(PROVIDER_CLASSES).join(', ')}`);
    }
    kinds.set(name, kind);
  }
  for (const key of props.keys()) {
    if (key === 'config.providers' || !key.startsWith('config.providers.')) continue;
    const m = /^config\.providers\.([^.]+)\.(class|param\.(.+))$/.exec(key);
    const name = m?.[1];
    if (m === null || name === undefined || !declared.includes(name)) {
      throw new ConfigError(`${key}: not a config provider setting of a provider listed in config.providers (${declared.join(',') || 'none listed'})`);
    }
    const kind = kinds.get(name);
    if (m[3] !== undefined && kind !== undefined && m[3] !== PARAMS[kind]) {
      throw new ConfigError(`${key}: sluice has no equivalent of parameter '${m[3]}' of the ${kind} config provider (it knows '${PARAMS[kind]}')`);
    }
  }
  const out = new Map<string, ConfigProvider>();
  for (const [name, kind] of kinds) {
    const p = param(name, PARAMS[kind]);
    const where = `config.providers.${name}.param.${PARAMS[kind]}`;
    out.set(name, kind === 'env' ? envProvider(env, p, where) : kind === 'file' ? fileProvider(p, where, cwd) : directoryProvider(p, where, cwd));
  }
  return out;
}

/** The variable text as written, for messages (`${env:NAME}`). */
function show(provider: string, path: string, key: string): string {
  return `\${${provider}:${path === '' ? '' : `${path}:`}${key}}`;
}

/**
 * Replaces every `${provider:[path:]key}` in the values of `configs` (one pass:
 * a replacement is not resolved again, as Kafka's). Returns the new map and the
 * keys whose value used a variable. A variable whose provider is unknown or whose
 * key the provider does not have is a {@link ConfigError} naming it and the config key.
 */
export function transformConfig(
  configs: ReadonlyMap<string, string>,
  providers: ReadonlyMap<string, ConfigProvider>,
  origin = 'the config file',
): { data: Map<string, string>; substituted: Set<string> } {
  // 1. Collect the keys wanted per provider and path.
  const wanted = new Map<string, Map<string, Set<string>>>();
  for (const [configKey, value] of configs) {
    for (const m of value.matchAll(VARIABLE)) {
      const [, provider = '', , path = '', key = ''] = m;
      if (!providers.has(provider)) {
        throw new ConfigError(`${configKey} in ${origin} uses ${show(provider, path, key)}, but there is no config provider '${provider}': use env, file or directory, or declare it in config.providers`);
      }
      const byPath = wanted.get(provider) ?? new Map<string, Set<string>>();
      wanted.set(provider, byPath);
      byPath.set(path, (byPath.get(path) ?? new Set()).add(key));
    }
  }
  // 2. Ask each provider once per path.
  const found = new Map<string, Map<string, Map<string, string>>>();
  for (const [provider, byPath] of wanted) {
    const results = new Map<string, Map<string, string>>();
    for (const [path, keys] of byPath) results.set(path, providers.get(provider)?.get(path, keys) ?? new Map());
    found.set(provider, results);
  }
  // 3. Replace; a variable without a value is an error naming the variable and the key, never a value.
  const data = new Map<string, string>();
  const substituted = new Set<string>();
  for (const [configKey, value] of configs) {
    const replaced = value.replace(VARIABLE, (_all, provider: string, _p: string | undefined, path: string | undefined, key: string) => {
      const v = found.get(provider)?.get(path ?? '')?.get(key);
      if (v === undefined) throw new ConfigError(`${configKey} in ${origin} uses ${show(provider, path ?? '', key)}, ${missing(providers.get(provider)?.kind, provider, path ?? '', key)}`);
      substituted.add(configKey);
      return v;
    });
    data.set(configKey, replaced);
  }
  return { data, substituted };
}

function missing(kind: string | undefined, provider: string, path: string, key: string): string {
  if (kind === 'env') return `but the environment variable ${key} is not set (or not allowed by the provider's allowlist.pattern)`;
  if (kind === 'file') return `but ${path === '' ? 'no file is named' : `the file ${path} has no key '${key}' (or is not allowed by allowed.paths)`}`;
  if (kind === 'directory') return `but ${path === '' ? 'no directory is named' : `there is no file '${key}' in the directory ${path} (or it is not allowed by allowed.paths)`}`;
  return `but provider '${provider}' has no value for it`;
}
