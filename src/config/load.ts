// Finds and reads the config file with cosmiconfig (module name `gateway`): .gatewayrc (JSON or
// YAML), .gatewayrc.json/.yaml/.yml, .gatewayrc.js/.cjs/.mjs, gateway.config.js/.cjs/.mjs and the
// `gateway` field of package.json, from the working directory upwards, then the user's config
// directory ($XDG_CONFIG_HOME/gateway/config[.json|.yaml|.yml|.js|.cjs|.mjs]). Only reads files:
// resolving precedence is resolve.ts's job.
import { cosmiconfig } from 'cosmiconfig';
import { statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { terminalSafe } from '../output/sanitize.js';

export const SEARCH_PLACES = [
  'package.json',
  '.gatewayrc',
  '.gatewayrc.json',
  '.gatewayrc.yaml',
  '.gatewayrc.yml',
  '.gatewayrc.js',
  '.gatewayrc.cjs',
  '.gatewayrc.mjs',
  'gateway.config.js',
  'gateway.config.cjs',
  'gateway.config.mjs',
];

export interface LoadedFile {
  file: string;
  /** Whatever the file held; validated by resolve.ts. */
  content: unknown;
}

/**
 * cosmiconfig's loaders prefix the parser's message with "JSON Error in <file>:" / "YAML Error in
 * <file>:"; this returns that file and the parser's own first line (js-yaml says "(line:column)",
 * parse-json says "at line N column M"), sanitised and short.
 */
export function describeParseError(error: unknown): { file?: string; detail: string } {
  const message = error instanceof Error ? error.message : String(error);
  const header = /^(?:\w+ )?Error in (.+?):\n/.exec(message);
  const rest = header ? message.slice(header[0].length) : message;
  const detail = rest.split('\n').find((l) => l.trim() !== '') ?? 'unreadable';
  const result: { file?: string; detail: string } = { detail: terminalSafe(detail.trim()).slice(0, 300) };
  if (header?.[1] !== undefined) result.file = header[1];
  return result;
}

export async function loadConfigFile(options: { explicitFile?: string; cwd?: string }): Promise<LoadedFile | undefined> {
  const explorer = cosmiconfig('gateway', {
    searchPlaces: SEARCH_PLACES,
    searchStrategy: 'global',
    cache: false,
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
      throw new ConfigError(`config file ${file} is malformed: ${describeParseError(error).detail}`);
    }
  }
  try {
    const result = await explorer.search(options.cwd ?? process.cwd());
    if (result === null) return undefined;
    return { file: result.filepath, content: result.isEmpty ? {} : result.config };
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
