/**
 * The `.properties` parser against java.util.Properties.load. Ported from
 * OpenJDK's test/jdk/java/util/Properties: PropertiesTest (BlankLines,
 * EscapeSpace, LoadParsing's assertions, UnicodeEscape) and Bug6609431
 * (a value ending in a backslash at the end of the file), inputs and expected
 * values unchanged.
 */
import { describe, expect, it } from 'vitest';
import { decodePropertiesFile, parseProperties, parsePropertyEntries, PropertiesSyntaxError } from '../../../../src/cli/internal/java-properties.js';

const obj = (text: string): Record<string, string> => Object.fromEntries(parseProperties(text));

describe('parseProperties (OpenJDK PropertiesTest)', () => {
  it('BlankLines: a single space is no property', () => {
    expect(parseProperties(' ').size).toBe(0);
  });

  it('EscapeSpace: escaped leading/trailing spaces in keys and values', () => {
    const propsCases =
      'key1=\\ \\ Value\\u4e001, has leading and trailing spaces\\  \n' +
      'key2=Value\\u4e002,\\ does not have\\ leading or trailing\\ spaces\n' +
      'key3=Value\\u4e003,has,no,spaces\n' +
      'key4=Value\\u4e004, does not have leading spaces\\  \n' +
      'key5=\\t\\ \\ Value\\u4e005, has leading tab and no trailing spaces\n' +
      'key6=\\ \\ Value\\u4e006,doesnothaveembeddedspaces\\ \\ \n' +
      '\\ key1\\ test\\ =key1, has leading and trailing spaces  \n' +
      'key2\\ test=key2, does not have leading or trailing spaces\n' +
      'key3test=key3,has,no,spaces\n' +
      'key4\\ test\\ =key4, does not have leading spaces  \n' +
      '\\t\\ key5\\ test=key5, has leading tab and no trailing spaces\n' +
      '\\ \\ key6\\ \\ =\\  key6,doesnothaveembeddedspaces  ';
    expect(obj(propsCases)).toEqual({
      key1: '  Value\u4e001, has leading and trailing spaces  ',
      key2: 'Value\u4e002, does not have leading or trailing spaces',
      key3: 'Value\u4e003,has,no,spaces',
      key4: 'Value\u4e004, does not have leading spaces  ',
      key5: '\t  Value\u4e005, has leading tab and no trailing spaces',
      key6: '  Value\u4e006,doesnothaveembeddedspaces  ',
      ' key1 test ': 'key1, has leading and trailing spaces  ',
      'key2 test': 'key2, does not have leading or trailing spaces',
      key3test: 'key3,has,no,spaces',
      'key4 test ': 'key4, does not have leading spaces  ',
      '\t key5 test': 'key5, has leading tab and no trailing spaces',
      '  key6  ': '  key6,doesnothaveembeddedspaces  ',
    });
  });

  it("LoadParsing: a comment, a backslash value, spaces in the key, ':' after a separator, an indented comment (input.txt's cases)", () => {
    // input.txt itself is not in the stored sources; these lines produce the values PropertiesTest asserts.
    const text = '# comment\nkey1=value1\nkey2=abc\\\\defg\\\\\n  key3  =  value3\nkey4=:value4\n   # indented comment\n';
    const props = parseProperties(text);
    expect(props.get('key1')).toBe('value1');
    expect(props.get('key2')).toBe('abc\\defg\\');
    expect(props.get('key3')).toBe('value3');
    expect(props.get('key4')).toBe(':value4');
    expect(props.has('#')).toBe(false);
    expect(props.size).toBe(4);
  });

  it('UnicodeEscape: a malformed \\uxxxx is an error', () => {
    expect(() => parseProperties('a=b\nb=\\u0\n')).toThrow(PropertiesSyntaxError);
    expect(() => parseProperties('a=b\nb=\\u0\n')).toThrow('Malformed \\uxxxx encoding.');
    try {
      parseProperties('a=b\nb=\\u0\n');
    } catch (error) {
      expect((error as PropertiesSyntaxError).line).toBe(2);
    }
  });

  it('Bug6609431: a value ending in a backslash at the end of the file', () => {
    const file = '#\n# Copyright (c) 2013, Oracle and/or its affiliates. All rights reserved.\n#\na=backslashbackslash\nb=backslash\\\n';
    expect(parseProperties(file).get('b')).toBe('backslash');
    expect(parseProperties('b=backslash\\').get('b')).toBe('backslash');
  });
});

describe('parseProperties (the format)', () => {
  it('separators: =, :, whitespace, whitespace around them', () => {
    expect(obj('a=1\nb:2\nc 3\nd\t=\t4\ne : 5\nf = = 6\ng\n')).toEqual({ a: '1', b: '2', c: '3', d: '4', e: '5', f: '= 6', g: '' });
  });

  it('comments with # and !, only as the first non-blank character', () => {
    expect(obj('# c1\n! c2\n  # c3\na=b # not a comment\nc=!d\n')).toEqual({ a: 'b # not a comment', c: '!d' });
  });

  it('line continuations: the next line loses its leading whitespace; a comment does not continue', () => {
    expect(obj('a=one, \\\n    two, \\\n\tthree\n# x \\\nb=c\n')).toEqual({ a: 'one, two, three', b: 'c' });
    expect(obj('a=1\\\n# not a comment\n')).toEqual({ a: '1# not a comment' });
    expect(obj('a=1\\\n\nb=2')).toEqual({ a: '1', b: '2' });
    expect(obj('a=x\\\\\nb=y')).toEqual({ a: 'x\\', b: 'y' });
    expect(obj('a=x\\\\\\\ny')).toEqual({ a: 'x\\y' });
  });

  it('CRLF and CR line ends, continuations included', () => {
    expect(obj('a=1\r\nb=2\rc=3\r\nd=4\\\r\n  5\r\n')).toEqual({ a: '1', b: '2', c: '3', d: '45' });
  });

  it('escapes: \\t \\n \\r \\f \\uXXXX, any other escaped character is itself', () => {
    expect(parseProperties('a=\\t\\n\\r\\f\\u0041\\u00e9\\z\\=\\:\\#\\\\').get('a')).toBe('\t\n\r\fAéz=:#\\');
    expect(parseProperties('k\\=ey\\:x = v').get('k=ey:x')).toBe('v');
  });

  it('duplicate keys: the last one wins', () => {
    expect(obj('a=1\nb=2\na=3\n')).toEqual({ a: '3', b: '2' });
    expect([...parseProperties('a=1\nb=2\na=3\n').keys()]).toEqual(['b', 'a']);
  });

  it('values keep trailing whitespace and inner ${...} text', () => {
    expect(parseProperties('a=x  ').get('a')).toBe('x  ');
    expect(parseProperties('p=${env:SECRET}').get('p')).toBe('${env:SECRET}');
  });

  it('an empty key', () => {
    expect(obj('=value\n:v2')).toEqual({ '': 'v2' });
  });

  it('reports the natural line each entry starts on', () => {
    expect(parsePropertyEntries('# c\n\na=1\\\n  2\nb=3\r\nc=4').map((e) => [e.key, e.line])).toEqual([
      ['a', 3],
      ['b', 5],
      ['c', 6],
    ]);
  });

  it('decodes UTF-8, and ISO-8859-1 when the bytes are not UTF-8', () => {
    expect(parseProperties(decodePropertiesFile(Buffer.from('a=héllo', 'utf8'))).get('a')).toBe('héllo');
    expect(parseProperties(decodePropertiesFile(Buffer.from('a=h\xe9llo', 'latin1'))).get('a')).toBe('héllo');
  });
});
