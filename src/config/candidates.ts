// A quick answer to "could cosmiconfig find anything at all?": a few existsSync calls over the
// same places its search visits. When nothing is there — the usual case for scripts and CI that
// configure gw through the environment — gw skips loading cosmiconfig and its loaders (about 7 ms
// of a ~90 ms run). When anything is there, cosmiconfig does the real search, with its own rules.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Files of a project folder cosmiconfig looks at (gw's search places, and its meta-config places). */
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
const META_PLACES = ['package.yaml', '.config'];
const GLOBAL_PLACES = ['config', 'config.json', 'config.yaml', 'config.yml', 'config.js', 'config.ts', 'config.cjs', 'config.mjs'];

/** The user's config directory for `gateway`, as cosmiconfig computes it (env-paths, no suffix). */
export function globalConfigDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'gateway');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'gateway', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'gateway');
}

/** Folders from `start` up to the home directory (or the root, outside it), as cosmiconfig walks. */
export function searchDirs(start: string): string[] {
  const stop = path.resolve(os.homedir());
  const dirs = [path.resolve(start)];
  for (let dir = dirs[0] ?? '/'; dir !== stop; ) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dirs.push(parent);
    dir = parent;
  }
  return dirs;
}

export function mayHaveConfig(cwd: string): boolean {
  for (const dir of searchDirs(cwd)) {
    for (const place of [...SEARCH_PLACES, ...META_PLACES]) if (existsSync(path.join(dir, place))) return true;
  }
  const global = globalConfigDir();
  return GLOBAL_PLACES.some((place) => existsSync(path.join(global, place)));
}
