// Finds and reads the config file with cosmiconfig (module name `gateway`): .gatewayrc (JSON or
// YAML), .gatewayrc.json/.yaml/.yml, .gatewayrc.js/.cjs/.mjs, gateway.config.js/.cjs/.mjs and the
// `gateway` field of package.json, from the working directory upwards, then the user's config
// directory ($XDG_CONFIG_HOME/gateway/config[.json|.yaml|.yml|.js|.cjs|.mjs]). Only reads files:
// resolving precedence is resolve.ts's job.
import { cosmiconfig, defaultLoaders } from 'cosmiconfig';
import { parse as parseJson } from 'lossless-json';
import { statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';
import { SEARCH_PLACES } from './candidates.js';


export interface LoadedFile {
  file: string;
  /** Whatever the file held; validated by resolve.ts. */
  content: unknown;
}

/** A config file the parser could not read: which file, and where, never what it holds. */
class ConfigParseError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * JSON config files (and package.json) are parsed with lossless-json rather than cosmiconfig's
 * parse-json, whose messages quote the file's text — keys included — around the error. This one
 * says what was expected and where, and nothing of the content.
 */
function loadJson(file: string, content: string): unknown {
  try {
    return parseJson(content, undefined, (digits) => Number(digits));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    const what = message.replace(/\s*(?:but got '.*?'\s*)?at position \d+.*$/, '').replace(/but got .*$/, '').trim();
    throw new ConfigParseError(file, `${terminalSafe(what).slice(0, 120)}${position?.[1] ? ` (${lineAndColumn(content, Number(position[1]))})` : ''}`);
  }
}

/**
 * cosmiconfig's YAML loader prefixes js-yaml's message with "YAML Error in <file>:"; js-yaml's own
 * first line says what is wrong and "(line:column)", and the lines after it quote the file, so
 * only the first is kept.
 */
export function describeParseError(error: unknown): { file?: string; detail: string } {
  if (error instanceof ConfigParseError) return { file: error.file, detail: error.detail };
  const message = error instanceof Error ? error.message : String(error);
  const header = /^(?:\w+ )?Error in (.+?):[ \t]*\n/.exec(message);
  const rest = header ? message.slice(header[0].length) : message;
  const detail = rest.split('\n').find((l) => l.trim() !== '') ?? 'unreadable';
  const result: { file?: string; detail: string } = { detail: terminalSafe(detail.trim()).slice(0, 200) };
  if (header?.[1] !== undefined) result.file = header[1];
  return result;
}

export async function loadConfigFile(options: { explicitFile?: string; cwd?: string }): Promise<LoadedFile | undefined> {
  const explorer = cosmiconfig('gateway', {
    searchPlaces: SEARCH_PLACES,
    searchStrategy: 'global',
    cache: false,
    loaders: { ...defaultLoaders, '.json': loadJson },
  });
  if (options.explicitFile !== undefined) {
    const file = path.resolve(options.cwd ?? process.cwd(), options.explicitFile);
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new ConfigError(`config file ${file} is not a file`);
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`config file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    try {
      const result = await explorer.load(file);
      return { file, content: result?.isEmpty ? {} : result?.config };
    } catch (error) {
      throw new ConfigError(`config file ${terminalSafe(file)} is malformed: ${describeParseError(error).detail}`);
    }
  }
  try {
    const result = await explorer.search(options.cwd ?? process.cwd());
    if (result === null) return undefined;
    // An empty file found by search is skipped by cosmiconfig, which searches on.
    return { file: result.filepath, content: result.config };
  } catch (error) {
    const { file, detail } = describeParseError(error);
    throw new ConfigError(`config file ${terminalSafe(file ?? '(found by search)')} is malformed: ${detail}`);
  }
}

/** A file holding a key should be readable by its owner only. */
export function permissionWarning(file: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const mode = statSync(file).mode;
    if ((mode & 0o077) === 0) return undefined;
    return `warning: ${file} holds a key and is readable by group or others; fix it with: chmod 600 ${file}`;
  } catch {
    return undefined;
  }
}
