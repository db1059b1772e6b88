/**
 * `sasl.jaas.config` parsing. Ported from Kafka's JaasContextTest (the
 * sasl.jaas.config property cases, inputs and expected options unchanged).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/errors.js';
import { parseJaasConfig } from '../../../../src/cli/internal/jaas.js';

const one = (text: string): { loginModule: string; controlFlag: string; options: Record<string, string> } => {
  const entries = parseJaasConfig(text);
  expect(entries).toHaveLength(1);
  const e = entries[0]!;
  return { loginModule: e.loginModule, controlFlag: e.controlFlag, options: Object.fromEntries(e.options) };
};

describe('parseJaasConfig (Kafka JaasContextTest)', () => {
  it('testConfigNoOptions', () => {
    expect(one('test.testConfigNoOptions required;')).toEqual({ loginModule: 'test.testConfigNoOptions', controlFlag: 'required', options: {} });
  });

  it('testControlFlag', () => {
    for (const flag of ['required', 'requisite', 'sufficient', 'optional']) {
      expect(one(`test.testControlFlag ${flag} propName=propValue;`)).toEqual({ loginModule: 'test.testControlFlag', controlFlag: flag, options: { propName: 'propValue' } });
    }
  });

  it('testMultipleOptions', () => {
    const opts = Array.from({ length: 10 }, (_, i) => `propName${i}=propValue${i}`).join(' ');
    expect(one(`test.testMultipleOptions sufficient ${opts};`).options).toEqual(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`propName${i}`, `propValue${i}`])));
  });

  it('testQuotedOptionValue / testQuotedOptionName / testNumericOptionWithQuotes', () => {
    expect(one('test.testQuotedOptionValue required propName="prop value" propName2="value1 = 1, value2 = 2";').options).toEqual({
      propName: 'prop value',
      propName2: 'value1 = 1, value2 = 2',
    });
    expect(one('test.testQuotedOptionName required "prop name"=propValue;').options).toEqual({ 'prop name': 'propValue' });
    expect(one('test.testNumericOptionWithQuotes required option1="3";').options).toEqual({ option1: '3' });
  });

  it('testMultipleLoginModules', () => {
    const text = [0, 1, 2].map((i) => ` test.Module${i} required index=Index${i} module=Module${i};`).join('');
    const entries = parseJaasConfig(text);
    expect(entries.map((e) => [e.loginModule, Object.fromEntries(e.options)])).toEqual([0, 1, 2].map((i) => [`test.Module${i}`, { index: `Index${i}`, module: `Module${i}` }]));
  });

  it('invalid: missing login module, control flag, option value, semicolon; numeric option without quotes; invalid flag', () => {
    for (const bad of [
      '  required option1=value1;',
      'test.loginModule option1=value1;',
      'loginModule required option1;',
      'test.testMissingSemicolon required option1=value1',
      'test.testNumericOptionWithoutQuotes required option1=3;',
      'test.testInvalidControlFlag { option1=3;',
      '',
    ]) {
      expect(() => parseJaasConfig(bad), bad).toThrow(ConfigError);
    }
  });
});

describe('parseJaasConfig (what Kafka clients write)', () => {
  it('the SCRAM and PLAIN login modules with double and single quotes, escapes, comments', () => {
    expect(one('org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";')).toEqual({
      loginModule: 'org.apache.kafka.common.security.scram.ScramLoginModule',
      controlFlag: 'required',
      options: { username: 'u', password: 'p' },
    });
    // Confluent Cloud's client config quotes with single quotes
    expect(one("org.apache.kafka.common.security.plain.PlainLoginModule required username='ABCD1234' password='x/y+z==';").options).toEqual({ username: 'ABCD1234', password: 'x/y+z==' });
    expect(one('m required password="a\\"b\\\\c\\td" /* comment */ username=bob; // trailing').options).toEqual({ password: 'a"b\\c\td', username: 'bob' });
  });

  it('errors name the option, never its value', () => {
    let message = '';
    try {
      parseJaasConfig('org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=9secret;');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("Value not specified for key 'password'");
    expect(message).toContain('quote a value');
    expect(message).not.toContain('9secret');
    try {
      parseJaasConfig('org.apache.kafka.common.security.plain.PlainLoginModule "hunter2" username=u;');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('invalid login module control flag');
    expect(message).not.toContain('hunter2');
  });
});
