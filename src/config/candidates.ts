// Where config files may be: the user's config directory, and the project directories from the
// working directory upwards. One function lists the directories and another the file names, and
// both the real search (load.ts) and the quick "could there be any file at all?" check below use
// them, so the check can never say no where the search would read something.
//
// The quick check matters for start-up: when no file can exist — the usual case for scripts and
// CI that configure gw through the environment — gw loads neither the loaders nor cosmiconfig.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** Project-level file names, in the order they are tried within one directory. */
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
] as const;

/** User-level file names in the user's config directory, in the order they are tried. */
export const USER_PLACES = ['config', 'config.json', 'config.yaml', 'config.yml', 'config.js', 'config.cjs', 'config.mjs'] as const;

/** What marks a project's root directory: the upward search outside HOME stops there. */
export const PROJECT_ROOT_MARKERS = ['.git', 'package.json'] as const;

export interface SearchOrigin {
  /** Where the search starts (the working directory). */
  cwd: string;
  /** The user's home directory ('' when unknown). */
  home: string;
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * The user's config directory for gw: `$XDG_CONFIG_HOME/gateway` (an absolute XDG_CONFIG_HOME
 * only, as the XDG spec says), else `~/.config/gateway`, on Linux and macOS alike;
 * `%APPDATA%\gateway\Config` on Windows.
 */
export function userConfigDir({ env, home, platform = process.platform }: Omit<SearchOrigin, 'cwd'>): string | undefined {
  if (platform === 'win32') {
    const appData = env.APPDATA || (home ? path.join(home, 'AppData', 'Roaming') : '');
    return appData ? path.join(appData, 'gateway', 'Config') : undefined;
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'gateway');
  return home ? path.join(home, '.config', 'gateway') : undefined;
}

/** `dir` is `base` or below it. */
function isWithin(dir: string, base: string): boolean {
  const rel = path.relative(base, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The home directory as given and as resolved through symbolic links (both may be how cwd is written). */
function homeForms(home: string): string[] {
  if (!home) return [];
  const given = path.resolve(home);
  try {
    const real = realpathSync(given);
    return real === given ? [given] : [given, real];
  } catch {
    return [given];
  }
}

export function isProjectRoot(dir: string): boolean {
  return PROJECT_ROOT_MARKERS.some((marker) => existsSync(path.join(dir, marker)));
}

/**
 * The project directories searched, nearest first: from the working directory upwards to the home
 * directory (included) when the working directory is inside it; outside it, up to the first
 * project root (a directory holding `.git` or `package.json`, included) or the filesystem root.
 */
export function projectDirs({ cwd, home }: Pick<SearchOrigin, 'cwd' | 'home'>): string[] {
  const start = path.resolve(cwd);
  const stop = homeForms(home).find((h) => isWithin(start, h));
  const dirs: string[] = [];
  for (let dir = start; ; ) {
    dirs.push(dir);
    if (stop !== undefined ? dir === stop : isProjectRoot(dir)) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

export interface Candidate {
  file: string;
  level: 'user' | 'project';
}

/** Every file the search may read, in the order it tries them: user level, then project level (nearest first). */
export function candidateFiles(origin: SearchOrigin): { user: Candidate[]; project: Candidate[][] } {
  const userDir = userConfigDir(origin);
  return {
    user: userDir === undefined ? [] : USER_PLACES.map((place) => ({ file: path.join(userDir, place), level: 'user' as const })),
    project: projectDirs(origin).map((dir) => SEARCH_PLACES.map((place) => ({ file: path.join(dir, place), level: 'project' as const }))),
  };
}

/** Could the search read anything? A few existsSync calls over exactly the files it would try. */
export function mayHaveConfig(origin: SearchOrigin): boolean {
  const { user, project } = candidateFiles(origin);
  return [user, ...project].some((files) => files.some((c) => existsSync(c.file)));
}
