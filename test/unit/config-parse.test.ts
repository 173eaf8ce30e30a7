// Parsing config text and describing failures (src/config/parse.ts): every message names a
// position and a fixed description, never text from the file. Each malformed input below holds a
// secret; no message may contain any part of it.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import {
  describeJsError,
  describeYamlError,
  hasTopLevelKey,
  packageJsonField,
  parseJsonText,
  parseYamlText,
  plainData,
  positionAt,
  positionFromCheckOutput,
} from '../../src/config/parse.js';

const SECRET = 'sk_live_SECRET0123456789';
const FILE = '/p/.gatewayrc.json';

async function failure(run: () => unknown): Promise<ConfigError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(78);
    return error as ConfigError;
  }
  throw new Error('did not throw');
}

/** No run of 6 or more characters of the secret appears in the text. */
function expectNoSecret(text: string): void {
  for (let i = 0; i + 6 <= SECRET.length; i++) expect(text).not.toContain(SECRET.slice(i, i + 6));
}

describe('parseJsonText', () => {
  it.each<[string, string, string]>([
    ['a missing comma', `{"merchantKey": "${SECRET}" "timeout": 5}`, 'comma expected after a value (line 1, column'],
    ['a trailing comma', `{"merchantKey": "${SECRET}",}`, 'Quoted object key expected (line 1, column'],
    ['a bare word value', `{"merchantKey": ${SECRET}}`, 'object value expected (line 1, column 17)'],
    ['a duplicate key', `{"${SECRET}": 1, "${SECRET}": 2}`, 'duplicate key'],
    ['an invalid number', `{"timeout": 5.${SECRET}}`, 'invalid number (line 1, column'],
    ['an unterminated string', `{"merchantKey": "${SECRET}`, 'end of string expected'],
    ['a bad escape', `{"merchantKey": "\\${SECRET}"}`, 'invalid escape character'],
    ['a control character in a string', `{"merchantKey": "${SECRET}\u0001"}`, 'invalid character'],
    ['a missing colon', `{"merchantKey" "${SECRET}"}`, 'colon expected after a property name'],
    ['garbage after the document', `{"a": 1} ${SECRET}`, 'end of input expected'],
    [
      'multi-line: the line and column of the error',
      `{\n  "baseUrl": "https://x.example",\n  "merchantKey": ${SECRET}\n}`,
      'object value expected (line 3, column 18)',
    ],
  ])('%s: exit 78, position, no secret', async (_name, text, detail) => {
    const error = await failure(() => parseJsonText(FILE, text));
    expect(error.message).toContain(`config file ${FILE} is malformed: invalid JSON, ${detail}`);
    expectNoSecret(error.message);
    expect(error.message).not.toContain('\n');
  });

  it('keeps numbers as numbers and reads valid JSON', () => {
    expect(parseJsonText(FILE, '{"timeout": 2.5, "profiles": {"a": {}}}')).toEqual({ timeout: 2.5, profiles: { a: {} } });
  });
});

describe('YAML', () => {
  it.each<[string, string, number]>([
    ['bad indentation', `merchantKey: ${SECRET}\n  timeout: 5\n`, 2],
    ['an unterminated flow sequence', `merchantKey: [${SECRET}\n`, 2],
    ['an unterminated quoted string', `baseUrl: x\nmerchantKey: "${SECRET}\n`, 3],
    ['an unknown tag (js-yaml quotes the tag)', `merchantKey: !<${SECRET}> x\n`, 1],
    ['an unknown alias (js-yaml quotes the alias)', `merchantKey: *${SECRET}\n`, 1],
    ['a malformed tag handle', `%TAG !${SECRET}! tag:x,2000:\n---\na: 1\n`, 2],
  ])('%s: exit 78 naming the line, no secret', async (_name, text, line) => {
    const error = await failure(() => parseYamlText('/p/.gatewayrc', text));
    expect(error.message).toMatch(new RegExp(`^config file /p/\\.gatewayrc is malformed: invalid YAML, [A-Za-z ,;()%-]+ \\(line ${line}, column \\d+\\)$`));
    expectNoSecret(error.message);
  });

  it.each<[unknown, string, { line: number; column: number } | undefined]>([
    [
      { reason: 'bad indentation of a mapping entry', mark: { line: 2, column: 3 } },
      'invalid YAML, bad indentation of a mapping entry',
      { line: 3, column: 4 },
    ],
    [{ reason: `unknown tag !<${SECRET}>`, mark: { line: 0, column: 0 } }, 'invalid YAML, syntax error', { line: 1, column: 1 }],
    [{ reason: `tag name is malformed: ${SECRET}`, mark: { line: 0, column: 5 } }, 'invalid YAML, syntax error', { line: 1, column: 6 }],
    [{ reason: `unidentified alias "${SECRET}"` }, 'invalid YAML, syntax error', undefined],
    [new Error(SECRET), 'invalid YAML, syntax error', undefined],
    [SECRET, 'invalid YAML, syntax error', undefined],
  ])('describeYamlError(%j)', (error, what, position) => {
    expect(describeYamlError(error)).toEqual(position === undefined ? { what } : { what, position });
  });

  it('reads valid YAML', async () => {
    expect(await parseYamlText('/p/.gatewayrc', 'merchantKey: m\ntimeout: 5\n')).toEqual({ merchantKey: 'm', timeout: 5 });
  });
});

describe('package.json', () => {
  it.each<[string, string, boolean]>([
    ['a top-level gateway field', '{"name": "x", "gateway": {}}', true],
    ['a top-level gateway field, malformed after it', '{"gateway": {"merchantKey": "k",}}', true],
    ['gateway as a dependency', '{"dependencies": {"gateway": "^1.0.0"}}', false],
    ['gateway as a string value', '{"name": "gateway", "description": "\\"gateway\\": no"}', false],
    ['gateway in an array', '{"keywords": ["gateway"], "x": [{"gateway": 1}]}', false],
    ['gateway inside a string with escaped quotes', '{"a": "x\\"gateway\\": y", }', false],
    ['an escaped key spelling', '{"gatew\\u0061y": {}}', true],
    ['no field at all, malformed', '{"name": "x",, }', false],
    ['whitespace before the colon', '{"name": "x",\n  "gateway"\n  : {}', true],
    ['after a nested object', '{"scripts": {"a": "b"}, "gateway": {', true],
    ['not an object', '["gateway", 1]', false],
    ['empty', '', false],
  ])('hasTopLevelKey: %s → %s', (_name, text, expected) => {
    expect(hasTopLevelKey(text, 'gateway')).toBe(expected);
  });

  it('no gateway field: not a config source (undefined), valid or malformed', () => {
    expect(packageJsonField('/p/package.json', '{"name": "shop"}')).toBeUndefined();
    expect(packageJsonField('/p/package.json', '{"name": "shop",, "version": }')).toBeUndefined();
    expect(packageJsonField('/p/package.json', '{"dependencies": {"gateway": "1"},}')).toBeUndefined();
    expect(packageJsonField('/p/package.json', '{"gateway": null}')).toBeUndefined();
    expect(packageJsonField('/p/package.json', '[1, 2]')).toBeUndefined();
  });

  it('a gateway field is the config', () => {
    expect(packageJsonField('/p/package.json', '{"name": "shop", "gateway": {"timeout": 5}}')).toEqual({ timeout: 5 });
  });

  it('malformed with a gateway field: exit 78 with the position and no secret', async () => {
    const error = await failure(() => packageJsonField('/p/package.json', `{\n  "name": "shop",\n  "gateway": {"merchantKey": "${SECRET}",}\n}`));
    expect(error.message).toMatch(/^config file \/p\/package\.json is malformed: invalid JSON, .* \(line 3, column \d+\)$/);
    expectNoSecret(error.message);
  });
});

describe('describeJsError', () => {
  const file = '/p/.gatewayrc.js';
  const paths = [file, 'file:///p/.gatewayrc.js'];

  function withStack(error: Error, stack: string): Error {
    error.stack = stack;
    return error;
  }

  it.each<[string, unknown, { kind: string; position?: { line: number; column: number } }]>([
    [
      'a ReferenceError naming the key: only the kind and the frame in the config file',
      withStack(
        new ReferenceError(`${SECRET} is not defined`),
        `ReferenceError: ${SECRET} is not defined\n    at Object.<anonymous> (/p/.gatewayrc.js:2:16)\n    at Module._compile (node:internal/modules/cjs/loader:1521:14)`,
      ),
      { kind: 'ReferenceError', position: { line: 2, column: 16 } },
    ],
    [
      'an ES module frame written as a file: URL',
      withStack(
        new TypeError('x'),
        `TypeError: Cannot read properties of null (reading '${SECRET}')\n    at file:///p/.gatewayrc.js:3:6\n    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)`,
      ),
      { kind: 'TypeError', position: { line: 3, column: 6 } },
    ],
    [
      'a CommonJS syntax error: the header line and the caret give the position',
      withStack(
        new SyntaxError(`Unexpected identifier '${SECRET}'`),
        `/p/.gatewayrc.js:2\n  merchantKey: "x" ${SECRET}\n                   ^^^^^^^^^^^\n\nSyntaxError: Unexpected identifier '${SECRET}'\n    at wrapSafe (node:internal/modules/cjs/loader:1464:18)`,
      ),
      { kind: 'SyntaxError', position: { line: 2, column: 20 } },
    ],
    [
      'an ES module syntax error carries no position',
      withStack(
        new SyntaxError(`Unexpected identifier '${SECRET}'`),
        `SyntaxError: Unexpected identifier '${SECRET}'\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)`,
      ),
      { kind: 'SyntaxError' },
    ],
    [
      'frames of other files are not positions in the config',
      withStack(new Error(SECRET), `Error: ${SECRET}\n    at helper (/p/lib/helper.js:9:9)\n    at Object.<anonymous> (/p/.gatewayrc.js:4:1)`),
      { kind: 'Error', position: { line: 4, column: 1 } },
    ],
    [
      'a file whose name extends the config name is not the config',
      withStack(new Error('x'), 'Error: x\n    at f (/p/.gatewayrc.js.bak:4:1)'),
      { kind: 'Error' },
    ],
    [
      'a Node error code is shown',
      Object.assign(withStack(new Error(`Cannot find package '${SECRET}'`), 'Error: x'), { code: 'ERR_MODULE_NOT_FOUND' }),
      { kind: 'Error [ERR_MODULE_NOT_FOUND]' },
    ],
    ['a code that is not an identifier is not shown', Object.assign(withStack(new Error('x'), 'Error: x'), { code: SECRET.toLowerCase() }), { kind: 'Error' }],
    ['a custom error name is not shown (it may be anything)', Object.assign(withStack(new Error('x'), 'Error: x'), { name: SECRET }), { kind: 'Error' }],
    ['a thrown string', SECRET, { kind: 'throw of a value that is not an Error' }],
    ['a thrown object', { merchantKey: SECRET }, { kind: 'throw of a value that is not an Error' }],
    ['a thrown undefined', undefined, { kind: 'throw of a value that is not an Error' }],
  ])('%s', (_name, error, expected) => {
    const described = describeJsError(error, paths);
    expect(described).toEqual(expected);
    expectNoSecret(JSON.stringify(described));
  });

  it.each<[string, { line: number; column: number } | undefined]>([
    [`[stdin]:3\n  merchantKey: "x" ${SECRET}\n                   ^^^^^^^^^^^\n\nSyntaxError: Unexpected identifier '${SECRET}'\n`, { line: 3, column: 20 }],
    [`[stdin]:1\n${SECRET}(\n^\n`, { line: 1, column: 1 }],
    ['', undefined],
    [`SyntaxError: ${SECRET}`, undefined],
  ])('positionFromCheckOutput(%j)', (output, position) => {
    expect(positionFromCheckOutput(output)).toEqual(position);
  });
});

describe('plainData (a JavaScript config export, copied)', () => {
  it('copies plain data and drops functions as JSON would', () => {
    const fn = (): string => 'x';
    expect(plainData({ a: 1, b: 'x', c: [1, fn, null], d: { e: true, f: fn, g: undefined }, h: Symbol('s') })).toEqual({
      a: 1,
      b: 'x',
      c: [1, null, null],
      d: { e: true, g: undefined },
    });
  });

  it('runs each getter once, inside the loader, so a throwing getter fails there', () => {
    let calls = 0;
    const value = {
      get merchantKey(): string {
        calls++;
        return 'k';
      },
    };
    expect(plainData(value)).toEqual({ merchantKey: 'k' });
    expect(calls).toBe(1);
    expect(() =>
      plainData({
        get merchantKey(): string {
          throw new Error(SECRET);
        },
      }),
    ).toThrow();
  });

  it('refuses cycles and absurd nesting', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => plainData(cycle)).toThrow(RangeError);
  });

  it('never sets a prototype', () => {
    const copy = plainData(JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy).toEqual({ a: 1 });
  });
});

describe('positionAt', () => {
  it.each<[string, number, { line: number; column: number }]>([
    ['abc', 0, { line: 1, column: 1 }],
    ['abc', 2, { line: 1, column: 3 }],
    ['a\nbc', 2, { line: 2, column: 1 }],
    ['a\nbc\n', 5, { line: 3, column: 1 }],
    ['a', 99, { line: 1, column: 2 }],
  ])('%j at %i → %j', (text, offset, position) => {
    expect(positionAt(text, offset)).toEqual(position);
  });
});
