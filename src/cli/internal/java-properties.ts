/**
 * A port of `java.util.Properties.load(Reader)`: the `.properties` format
 * Kafka and Kafka Streams users keep their configuration in.
 *
 * - A logical line is one or more natural lines (`\n`, `\r` or `\r\n`); a
 *   line ending in an odd number of backslashes continues on the next one,
 *   whose leading whitespace (space, tab, form feed) is dropped.
 * - Blank lines and lines whose first non-whitespace character is `#` or `!`
 *   are comments (a comment never continues onto the next line).
 * - The key ends at the first unescaped `=`, `:` or whitespace; whitespace,
 *   then at most one `=` or `:`, then whitespace separate it from the value.
 * - Escapes: `\t`, `\n`, `\r`, `\f`, `\uXXXX`; a backslash before any other
 *   character stands for that character. A malformed `\u` is an error.
 * - A key given twice keeps its last value (`Properties.put`).
 */

/** Why a properties text could not be read, with the 1-based number of the natural line it starts on. */
export class PropertiesSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'PropertiesSyntaxError';
  }
}

/** One key/value pair with the natural line its logical line starts on. */
export interface PropertyEntry {
  key: string;
  value: string;
  line: number;
}

const isBlank = (c: string): boolean => c === ' ' || c === '\t' || c === '\f';
const isEol = (c: string): boolean => c === '\n' || c === '\r';

/** The logical lines of `text`, as `Properties.LineReader.readLine()` returns them (escapes still in). */
function logicalLines(text: string): { line: string; start: number }[] {
  const out: { line: string; start: number }[] = [];
  let natural = 1;
  let i = 0;
  // 1. Skip the whitespace and empty lines before a logical line; drop a comment line.
  while (i < text.length) {
    let c = text.charAt(i);
    if (isBlank(c) || isEol(c)) {
      if (c === '\n' || (c === '\r' && text.charAt(i + 1) !== '\n')) natural++;
      i++;
      continue;
    }
    if (c === '#' || c === '!') {
      while (i < text.length && !isEol(text.charAt(i))) i++;
      continue;
    }
    // 2. Collect natural lines while they end in an odd number of backslashes.
    const start = natural;
    let buf = '';
    let precedingBackslash = false;
    while (i < text.length) {
      c = text.charAt(i);
      if (!isEol(c)) {
        buf += c;
        precedingBackslash = c === '\\' ? !precedingBackslash : false;
        i++;
        continue;
      }
      // End of a natural line.
      i += c === '\r' && text.charAt(i + 1) === '\n' ? 2 : 1;
      natural++;
      if (!precedingBackslash) break;
      // 3. A continuation: drop the backslash and the next line's leading whitespace (not its line break).
      buf = buf.slice(0, -1);
      precedingBackslash = false;
      while (i < text.length && isBlank(text.charAt(i))) i++;
    }
    // A backslash at the very end of the input is dropped too.
    if (i >= text.length && precedingBackslash) buf = buf.slice(0, -1);
    out.push({ line: buf, start });
  }
  return out;
}

/** `Properties.loadConvert`: resolves the escapes of a key or value. */
function unescape(s: string, line: number): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = s.charAt(++i);
    if (next === 'u') {
      const hex = s.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PropertiesSyntaxError('Malformed \\uxxxx encoding.', line);
      out += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else {
      out += next === 't' ? '\t' : next === 'r' ? '\r' : next === 'n' ? '\n' : next === 'f' ? '\f' : next;
    }
  }
  return out;
}

/** Splits one logical line into its key and value (`Properties.load0`). */
function splitEntry(line: string, lineNo: number): PropertyEntry {
  let keyLen = 0;
  let valueStart = line.length;
  let hasSep = false;
  let precedingBackslash = false;
  while (keyLen < line.length) {
    const c = line.charAt(keyLen);
    if ((c === '=' || c === ':') && !precedingBackslash) {
      valueStart = keyLen + 1;
      hasSep = true;
      break;
    }
    if (isBlank(c) && !precedingBackslash) {
      valueStart = keyLen + 1;
      break;
    }
    precedingBackslash = c === '\\' ? !precedingBackslash : false;
    keyLen++;
  }
  while (valueStart < line.length) {
    const c = line.charAt(valueStart);
    if (!isBlank(c)) {
      if (!hasSep && (c === '=' || c === ':')) hasSep = true;
      else break;
    }
    valueStart++;
  }
  return { key: unescape(line.slice(0, keyLen), lineNo), value: unescape(line.slice(valueStart), lineNo), line: lineNo };
}

/** Every entry of a properties text in file order (duplicates included). Throws {@link PropertiesSyntaxError}. */
export function parsePropertyEntries(text: string): PropertyEntry[] {
  return logicalLines(text).map(({ line, start }) => splitEntry(line, start));
}

/** Parses a properties text into a map; a repeated key keeps its last value, as `Properties.load`. */
export function parseProperties(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const { key, value } of parsePropertyEntries(text)) {
    map.delete(key); // the last occurrence decides the position too
    map.set(key, value);
  }
  return map;
}

/**
 * Decodes a properties file: UTF-8, or ISO-8859-1 (what `Properties.load(InputStream)`
 * reads) when the bytes are not valid UTF-8. A UTF-8 byte-order mark is dropped.
 */
export function decodePropertiesFile(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('latin1');
  }
}
