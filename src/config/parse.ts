// Turning a config file's text into settings, and a failure into a message that names the file
// and the position but never repeats anything the file holds: parsers and JavaScript errors quote
// the offending token (`Unexpected identifier 'sk_live_…'`, `sk_live_… is not defined`) and add code
// frames, and a config file's offending token is often the key itself. Messages are therefore
// built from a fixed vocabulary, the error's kind and the line and column, nothing else.
import { parse as parseLossless } from 'lossless-json';
import { ConfigError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';

export interface Position {
  line: number;
  column: number;
}

export function positionText(position: Position | undefined): string {
  return position === undefined ? '' : ` (line ${position.line}, column ${position.column})`;
}

/** 1-based line and column of a character offset. */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}

export function malformed(file: string, what: string, position?: Position): ConfigError {
  return new ConfigError(`config file ${terminalSafe(file)} is malformed: ${what}${positionText(position)}`);
}

// ---------------------------------------------------------------------------------------------
// JSON (lossless-json: numbers keep their digits; its messages are mapped to fixed text)
// ---------------------------------------------------------------------------------------------

const JSON_REASONS: ReadonlyArray<[RegExp, string]> = [
  [/^Comma ',' expected/, 'comma expected after a value'],
  [/^Colon ':' expected/, 'colon expected after a property name'],
  [/^JSON value expected/, 'value expected'],
  [/^Array item or end of array/, 'array item or end of array expected'],
  [/^Array item expected/, 'array item expected'],
  [/^Expected end of input/, 'end of input expected'],
  [/^Invalid number/, 'invalid number'],
  [/^End of string/, 'end of string expected'],
  [/^Quoted object key or end of object/, 'Quoted object key or end of object expected'],
  [/^Quoted object key expected/, 'Quoted object key expected'],
  [/^Duplicate key/, 'duplicate key'],
  [/^Invalid character/, 'invalid character'],
  [/^Invalid escape character/, 'invalid escape character'],
  [/^Object value expected/, 'object value expected'],
  [/^Invalid unicode character/, 'invalid unicode escape'],
];

/** Parses JSON; a syntax error becomes "invalid JSON: <what> (line, column)" with no text from the file. */
export function parseJsonText(file: string, text: string): unknown {
  try {
    return parseLossless(text, undefined, (digits) => Number(digits));
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const reason = JSON_REASONS.find(([pattern]) => pattern.test(message))?.[1] ?? 'syntax error';
    const offset = /at position (\d+)/.exec(message)?.[1];
    throw malformed(file, `invalid JSON, ${reason}`, offset === undefined ? undefined : positionAt(text, Number(offset)));
  }
}

// ---------------------------------------------------------------------------------------------
// YAML (cosmiconfig's loader, js-yaml)
// ---------------------------------------------------------------------------------------------

/**
 * js-yaml's `reason` is plain words ("bad indentation of a mapping entry") except where it quotes
 * the file (`unknown tag !<…>`, `unidentified alias "…"`, `tag name is malformed: …`): only
 * reasons made of letters, spaces and a little punctuation are kept.
 */
export function describeYamlError(error: unknown): { what: string; position?: Position } {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  const reason = typeof e.reason === 'string' && /^[A-Za-z][A-Za-z ,;()%-]{0,119}$/.test(e.reason) ? e.reason : 'syntax error';
  const line = e.mark?.line;
  const column = e.mark?.column;
  const result: { what: string; position?: Position } = { what: `invalid YAML, ${reason}` };
  if (typeof line === 'number' && typeof column === 'number') result.position = { line: line + 1, column: column + 1 };
  return result;
}

export async function parseYamlText(file: string, text: string): Promise<unknown> {
  const { defaultLoaders } = await import('cosmiconfig');
  try {
    return await defaultLoaders['.yaml'](file, text);
  } catch (error) {
    const { what, position } = describeYamlError(error);
    throw malformed(file, what, position);
  }
}

// ---------------------------------------------------------------------------------------------
// package.json
// ---------------------------------------------------------------------------------------------

/**
 * Does this (possibly malformed) JSON text have `key` as a property of its top-level object? A
 * small tokenizer that tracks strings and nesting, so a "gateway" dependency or a string holding
 * "gateway" does not count. Used only when the text does not parse.
 */
export function hasTopLevelKey(text: string, key: string): boolean {
  const stack: string[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey && stack.length === 1 && stack[0] === '{') {
        let k = j + 1;
        while (k < text.length && /\s/.test(text[k] ?? '')) k++;
        if (text[k] === ':') {
          let name: unknown;
          try {
            name = JSON.parse(text.slice(i, j + 1));
          } catch {
            name = undefined;
          }
          if (name === key) return true;
        }
      }
      expectKey = false;
      i = j;
    } else if (c === '{' || c === '[') {
      stack.push(c);
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] === '{';
    }
  }
  return false;
}

/**
 * The `gateway` field of a package.json, or undefined when there is none (then the file is not a
 * config source). A malformed package.json is an error only when it has the field.
 */
export function packageJsonField(file: string, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = parseJsonText(file, text);
  } catch (error) {
    if (hasTopLevelKey(text, 'gateway')) throw error;
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.hasOwn(parsed, 'gateway')) return undefined;
  const field = (parsed as Record<string, unknown>).gateway;
  return field === null ? undefined : field;
}

// ---------------------------------------------------------------------------------------------
// JavaScript
// ---------------------------------------------------------------------------------------------

const ERROR_KINDS = new Set(['Error', 'SyntaxError', 'ReferenceError', 'TypeError', 'RangeError', 'EvalError', 'URIError', 'AggregateError']);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What a JavaScript config's failure may show: the error's kind (a built-in class name, and a
 * Node error code such as ERR_MODULE_NOT_FOUND), and the line and column in the config file taken
 * from the stack — never the message, which may quote the file.
 * `paths` are the ways the file may be written in the stack (path, real path, file: URL).
 */
export function describeJsError(error: unknown, paths: readonly string[]): { kind: string; position?: Position } {
  if (!(error instanceof Error)) {
    return { kind: 'throw of a value that is not an Error' };
  }
  const name = ERROR_KINDS.has(error.name) ? error.name : error instanceof SyntaxError ? 'SyntaxError' : 'Error';
  const code = (error as { code?: unknown }).code;
  const kind = typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,60}$/.test(code) ? `${name} [${code}]` : name;
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const alternatives = paths.map(escapeRegExp).join('|');
  if (alternatives === '') return { kind };
  // A CommonJS syntax error starts its stack with "<file>:<line>", the source line and a caret line.
  const header = new RegExp(`^(?:${alternatives}):(\\d+)\\n[^\\n]*\\n([ \\t]*)\\^`).exec(stack);
  if (header?.[1] !== undefined) return { kind, position: { line: Number(header[1]), column: (header[2] ?? '').length + 1 } };
  // Otherwise the innermost stack frame in the config file: "(<file>:<line>:<column>)" or "at <file>:<line>:<column>".
  const frame = new RegExp(`(?:^|[\\s(])(?:${alternatives}):(\\d+):(\\d+)`, 'm').exec(stack.split('\n').slice(1).join('\n'));
  if (frame?.[1] !== undefined && frame[2] !== undefined) return { kind, position: { line: Number(frame[1]), column: Number(frame[2]) } };
  return { kind };
}

/**
 * Where `node --check` says a syntax error is, for the ES-module syntax errors whose stack carries
 * no position. Output like "[stdin]:3\n<source line>\n<spaces>^^^\n\nSyntaxError: …": only the
 * numbers are taken.
 */
export function positionFromCheckOutput(output: string): Position | undefined {
  const match = /^\[stdin\]:(\d+)\r?\n[^\n]*\n([ \t]*)\^/m.exec(output);
  if (match?.[1] === undefined) return undefined;
  return { line: Number(match[1]), column: (match[2] ?? '').length + 1 };
}

/**
 * A JavaScript config's export, copied into plain data (objects, arrays, strings, numbers,
 * booleans, null) so nothing of the module — getters, proxies — runs later, outside the loader's
 * error handling. Functions, symbols and bigints are dropped as JSON.stringify drops them (an
 * array keeps null in their place).
 */
export function plainData(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === undefined) return value;
  if (typeof value !== 'object') return undefined;
  if (depth > 8) throw new RangeError('nested too deeply');
  if (Array.isArray(value)) return value.map((item) => plainData(item, depth + 1) ?? null);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') continue;
    const item = plainData((value as Record<string, unknown>)[key], depth + 1);
    if (item !== undefined) copy[key] = item;
  }
  return copy;
}
