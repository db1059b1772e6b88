/**
 * The value of Kafka's `sasl.jaas.config`, parsed as Kafka's `JaasConfig`
 * does (a `java.io.StreamTokenizer` with `//` and `/* *\/` comments and `-`,
 * `_`, `$` as word characters):
 *
 * ```text
 * <loginModuleClass> <controlFlag> (<optionName>=<optionValue>)*;
 * ```
 *
 * Values are words (letters, digits, `.`, `-`, `_`, `$`; not starting with a
 * digit, `.` or `-`) or quoted with `"` or `'` (escapes `\\`, `\"`, `\n`, ...).
 * Error messages name options, never their values: the values are secrets.
 */
import { ConfigError } from '../../errors.js';

/** One login module entry. */
export interface JaasEntry {
  loginModule: string;
  controlFlag: 'required' | 'requisite' | 'sufficient' | 'optional';
  options: Map<string, string>;
}

type Token = { kind: 'word' | 'quoted'; text: string } | { kind: 'number' } | { kind: 'char'; char: string } | { kind: 'eof' };

const isAlpha = (c: string): boolean => /[A-Za-z\u00A0-\u00FF\-_$]/.test(c) || c.charCodeAt(0) > 0xff;
const isDigit = (c: string): boolean => /[0-9.]/.test(c);
const isSpace = (c: string): boolean => c.charCodeAt(0) <= 0x20;

const ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A `StreamTokenizer` as `JaasConfig` configures it. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (isSpace(c)) {
      i++;
    } else if (c === '/') {
      // `//` and a lone `/` (the default comment character) end at the line end; `/* */` at its close.
      if (text.charAt(i + 1) === '*') {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? text.length : end + 2;
      } else {
        while (i < text.length && text.charAt(i) !== '\n' && text.charAt(i) !== '\r') i++;
      }
    } else if (c === '"' || c === "'") {
      let out = '';
      i++;
      while (i < text.length && text.charAt(i) !== c && text.charAt(i) !== '\n' && text.charAt(i) !== '\r') {
        let ch = text.charAt(i++);
        if (ch === '\\' && i < text.length) {
          const next = text.charAt(i++);
          if (/[0-7]/.test(next)) {
            let oct = next;
            const max = next <= '3' ? 3 : 2;
            while (oct.length < max && /[0-7]/.test(text.charAt(i))) oct += text.charAt(i++);
            ch = String.fromCharCode(parseInt(oct, 8));
          } else {
            ch = ESCAPES[next] ?? next;
          }
        }
        out += ch;
      }
      if (text.charAt(i) === c) i++;
      tokens.push({ kind: 'quoted', text: out });
    } else if (c === '-' && !isDigit(text.charAt(i + 1))) {
      // '-' is both a number and a word character: not followed by a digit it is an ordinary character
      tokens.push({ kind: 'char', char: c });
      i++;
    } else if (isDigit(c) || c === '-') {
      i++;
      while (i < text.length && isDigit(text.charAt(i))) i++;
      tokens.push({ kind: 'number' });
    } else if (isAlpha(c)) {
      let word = '';
      while (i < text.length && (isAlpha(text.charAt(i)) || isDigit(text.charAt(i)))) word += text.charAt(i++);
      tokens.push({ kind: 'word', text: word });
    } else {
      tokens.push({ kind: 'char', char: c });
      i++;
    }
  }
  tokens.push({ kind: 'eof' });
  return tokens;
}

const textOf = (t: Token): string | undefined => (t.kind === 'word' || t.kind === 'quoted' ? t.text : undefined);

/**
 * Parses a `sasl.jaas.config` value into its login module entries. Throws a
 * {@link ConfigError} as Kafka's `JaasConfig` would throw, naming `key`.
 */
export function parseJaasConfig(value: string, key = 'sasl.jaas.config'): JaasEntry[] {
  const tokens = tokenize(value);
  const entries: JaasEntry[] = [];
  let i = 0;
  const next = (): Token => tokens[i++] ?? { kind: 'eof' };
  for (let t = next(); t.kind !== 'eof'; t = next()) {
    const loginModule = textOf(t);
    if (loginModule === undefined) throw new ConfigError(`${key}: the login module class must come first ('<LoginModule> required username="..." password="...";')`);
    const flagToken = next();
    if (flagToken.kind === 'eof') throw new ConfigError(`${key}: Login module control flag not specified in JAAS config`);
    const flag = textOf(flagToken)?.toLowerCase();
    if (flag !== 'required' && flag !== 'requisite' && flag !== 'sufficient' && flag !== 'optional') {
      throw new ConfigError(`${key}: invalid login module control flag in JAAS config: the word after ${loginModule} must be required (or requisite, sufficient, optional)`);
    }
    const options = new Map<string, string>();
    let o = next();
    while (o.kind !== 'eof' && !(o.kind === 'char' && o.char === ';')) {
      const name = textOf(o);
      const eq = next();
      const v = eq.kind === 'char' && eq.char === '=' ? next() : undefined;
      const text = v === undefined ? undefined : textOf(v);
      if (name === undefined || text === undefined) {
        const hint = v?.kind === 'number' || v?.kind === 'char' ? ' (quote a value that starts with a digit, "." or "-" or holds other characters: name="value")' : '';
        throw new ConfigError(`${key}: Value not specified for key '${name ?? '?'}' in JAAS config${hint}`);
      }
      options.set(name, text);
      o = next();
    }
    if (o.kind === 'eof') throw new ConfigError(`${key}: JAAS config entry not terminated by semi-colon`);
    entries.push({ loginModule, controlFlag: flag, options });
  }
  if (entries.length === 0) throw new ConfigError(`${key}: Login module not specified in JAAS config`);
  return entries;
}
