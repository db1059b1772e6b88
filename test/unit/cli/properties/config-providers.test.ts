/**
 * `${provider:[path:]key}` in property values. Ported from Kafka's
 * ConfigTransformerTest (inputs and expected outputs unchanged, except
 * testNoReplacement: Kafka leaves an unresolved variable as it is, sluice
 * stops with an error naming it) and EnvVarConfigProviderTest.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/errors.js';
import {
  allowedPaths,
  directoryProvider,
  envProvider,
  fileProvider,
  providersOf,
  transformConfig,
  type ConfigProvider,
} from '../../../../src/cli/internal/config-providers.js';

const MY_KEY = 'myKey';

/** Kafka's ConfigTransformerTest.TestConfigProvider. */
const testProvider: ConfigProvider = {
  get(path, keys) {
    const data = new Map<string, string>();
    if (path === 'testPath') {
      if (keys.has('testKey')) data.set('testKey', 'testResult');
      if (keys.has('testKeyWithTTL')) data.set('testKeyWithTTL', 'testResultWithTTL');
      if (keys.has('testIndirection')) data.set('testIndirection', '${test:testPath:testResult}');
    } else if (keys.has('testKey')) {
      data.set('testKey', 'testResultNoPath');
    }
    return data;
  },
};
const transform = (value: string): string | undefined =>
  transformConfig(new Map([[MY_KEY, value]]), new Map([['test', testProvider]])).data.get(MY_KEY);

describe('transformConfig (Kafka ConfigTransformerTest)', () => {
  it('testReplaceVariable', () => expect(transform('${test:testPath:testKey}')).toBe('testResult'));
  it('testReplaceVariableWithTTL', () => expect(transform('${test:testPath:testKeyWithTTL}')).toBe('testResultWithTTL'));
  it('testReplaceMultipleVariablesInValue', () =>
    expect(transform('hello, ${test:testPath:testKey}; goodbye, ${test:testPath:testKeyWithTTL}!!!')).toBe('hello, testResult; goodbye, testResultWithTTL!!!'));
  it('testNoReplacement: an error naming the variable and the key (Kafka keeps the text)', () => {
    expect(() => transform('${test:testPath:missingKey}')).toThrow(ConfigError);
    expect(() => transform('${test:testPath:missingKey}')).toThrow(/myKey in the config file uses \$\{test:testPath:missingKey\}/);
  });
  it('testSingleLevelOfIndirection', () => expect(transform('${test:testPath:testIndirection}')).toBe('${test:testPath:testResult}'));
  it('testReplaceVariableNoPath', () => expect(transform('${test:testKey}')).toBe('testResultNoPath'));
  it('testReplaceMultipleVariablesWithoutPathInValue', () =>
    expect(transform('first ${test:testKey}; second ${test:testKey}')).toBe('first testResultNoPath; second testResultNoPath'));
  it('reports which keys used a variable; text without one is unchanged', () => {
    const r = transformConfig(new Map([['a', '${test:testKey}'], ['b', 'plain $ {x} ${notclosed']]), new Map([['test', testProvider]]));
    expect([...r.substituted]).toEqual(['a']);
    expect(r.data.get('b')).toBe('plain $ {x} ${notclosed');
  });
});

describe('envProvider (Kafka EnvVarConfigProviderTest)', () => {
  const env = { test_var1: 'value1', secret_var2: 'value2', new_var3: 'value3', not_so_secret_var4: 'value4' };
  it('testGetOneKeyWithEmptyPath / testGetEnvVarsByKeyList', () => {
    expect(Object.fromEntries(envProvider(env).get('', new Set(['test_var1'])))).toEqual({ test_var1: 'value1' });
    expect([...envProvider(env).get('', new Set(['test_var1', 'secret_var2'])).keys()].sort()).toEqual(['secret_var2', 'test_var1']);
  });
  it('testNotNullPathNonEmptyThrowsException', () => {
    expect(() => envProvider(env).get('test-path', new Set(['test_var1']))).toThrow("Path is not supported for EnvVarConfigProvider, invalid value 'test-path'");
  });
  it('testRegExpEnvVarsSingleEntryKeyList: allowlist.pattern', () => {
    const p = envProvider(env, 'secret_.*');
    expect([...p.get('', new Set(['secret_var2', 'test_var1'])).keys()]).toEqual(['secret_var2']);
  });
});

describe('the providers of a properties file', () => {
  const env = { CC_API_KEY: 'key-1', CC_API_SECRET: 's3cr3t' };
  it('${env:NAME} works with and without config.providers', () => {
    const bare = providersOf(new Map(), env);
    expect(transformConfig(new Map([['u', '${env:CC_API_KEY}']]), bare).data.get('u')).toBe('key-1');
    const declared = providersOf(
      new Map([
        ['config.providers', 'env'],
        ['config.providers.env.class', 'org.apache.kafka.common.config.provider.EnvVarConfigProvider'],
      ]),
      env,
    );
    expect(transformConfig(new Map([['u', '${env:CC_API_KEY}']]), declared).data.get('u')).toBe('key-1');
  });

  it('a missing variable names the variable and the key, never a value', () => {
    const providers = providersOf(new Map(), env);
    const props = new Map([['sasl.jaas.config', 'x required username="${env:CC_API_KEY}" password="${env:MISSING_SECRET}";']]);
    let message = '';
    try {
      transformConfig(props, providers, 'app.properties');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe('sasl.jaas.config in app.properties uses ${env:MISSING_SECRET}, but the environment variable MISSING_SECRET is not set (or not allowed by the provider\'s allowlist.pattern)');
    expect(message).not.toContain('key-1');
  });

  it('an alias provider name, an allowlist, and declaration errors', () => {
    const props = new Map([
      ['config.providers', 'secrets'],
      ['config.providers.secrets.class', 'org.apache.kafka.common.config.provider.EnvVarConfigProvider'],
      ['config.providers.secrets.param.allowlist.pattern', 'CC_.*'],
    ]);
    const providers = providersOf(props, { ...env, OTHER: 'x' });
    expect(transformConfig(new Map([['p', '${secrets:CC_API_SECRET}']]), providers).data.get('p')).toBe('s3cr3t');
    expect(() => transformConfig(new Map([['p', '${secrets:OTHER}']]), providers)).toThrow(/OTHER is not set \(or not allowed/);
    expect(() => providersOf(new Map([['config.providers', 'vault']]), env)).toThrow('config.providers names \'vault\' but config.providers.vault.class is not set');
    expect(() => providersOf(new Map([['config.providers', 'vault'], ['config.providers.vault.class', 'com.example.VaultConfigProvider']]), env)).toThrow(
      'config.providers.vault.class: sluice has no equivalent of config provider com.example.VaultConfigProvider',
    );
    expect(() => providersOf(new Map([['config.providers.env.class', 'x']]), env)).toThrow(/not a config provider setting of a provider listed in config.providers/);
    expect(() => transformConfig(new Map([['p', '${vault:a:b}']]), providersOf(new Map(), env))).toThrow("p in the config file uses ${vault:a:b}, but there is no config provider 'vault'");
  });

  it('file and directory providers (Kafka FileConfigProvider, DirectoryConfigProvider), with allowed.paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-providers-'));
    writeFileSync(join(dir, 'secrets.properties'), 'password=from-file\n');
    writeFileSync(join(dir, 'token'), 'from-directory');
    const file = `\${file:${join(dir, 'secrets.properties')}:password}`;
    const direct = `\${directory:${dir}:token}`;
    const out = transformConfig(new Map([['a', file], ['b', direct]]), providersOf(new Map(), {})).data;
    expect(out.get('a')).toBe('from-file');
    expect(out.get('b')).toBe('from-directory');
    expect(() => transformConfig(new Map([['a', `\${file:${join(dir, 'secrets.properties')}:nope}`]]), providersOf(new Map(), {}))).toThrow(/has no key 'nope'/);
    expect(fileProvider(dir).get(join(dir, 'secrets.properties'), new Set(['password'])).get('password')).toBe('from-file');
    expect(fileProvider('/usr').get(join(dir, 'secrets.properties'), new Set(['password'])).size).toBe(0);
    expect(() => fileProvider('relative/path')).toThrow('is not absolute');
    expect(directoryProvider('/usr').get(dir, new Set(['token'])).size).toBe(0); // outside allowed.paths
  });
});

describe('allowedPaths (Kafka AllowedPathsTest)', () => {
  const parent = mkdtempSync(join(tmpdir(), 'sluice-allowed-'));
  const dir = join(parent, 'dir');
  const dir2 = join(parent, 'dir2');
  const myFile = join(dir, 'myFile');
  mkdirSync(dir);
  mkdirSync(dir2);
  writeFileSync(myFile, '');
  const where = 'config.providers.file.param.allowed.paths';
  const raw = `${dir}/../dir2`; // Paths.get(dir, "..", "dir2")
  const traversed = dir2; // its normalised form

  it('testAllowedPath', () => expect(allowedPaths(`${dir},${dir2}`, where, '/')(myFile)).toBe(myFile));
  it('testNotAllowedPath', () => expect(allowedPaths(dir, where, '/')(dir2)).toBeUndefined());
  it('testNullAllowedPaths', () => expect(allowedPaths(undefined, where, '/')(myFile)).toBe(myFile));
  it('testNoTraversal', () => expect(allowedPaths(dir, where, '/')(raw)).toBeUndefined());
  it('testAllowedTraversal', () => expect(allowedPaths(`${dir},${dir2}`, where, '/')(raw)).toBe(traversed));
  it('testAllowedPathDoesNotExist', () => expect(() => allowedPaths('/foo', where, '/')).toThrow(`${where}: Path /foo does not exist`));
  it('testAllowedPathIsNotAbsolute', () => expect(() => allowedPaths('foo bar ', where, '/')).toThrow(`${where}: Path foo bar  is not absolute`));
});
