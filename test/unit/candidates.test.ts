// The quick "is there any config file at all?" check (mayHaveConfig) must never say no where the
// real search (loadConfigFiles) would look at a file: each case below is checked against the
// search itself. And where the search walks: up to HOME inside it; outside it, up to the first
// project root or the filesystem root.
import { chmodSync, existsSync, mkdirSync, rmSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  candidateFiles,
  isProjectRoot,
  mayHaveConfig,
  projectDirs,
  SEARCH_PLACES,
  USER_PLACES,
  userConfigDir,
  type SearchOrigin,
} from '../../src/config/candidates.js';
import { loadConfigFiles } from '../../src/config/load.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  made.push(dir, `${dir}-link`, `${dir}-sibling`);
  return dir;
}

/** A home folder with a project two levels down. */
function home(): { home: string; project: string; origin: SearchOrigin } {
  const root = temp('gw-candidates-');
  chmodSync(root, 0o755);
  const project = path.join(root, 'work', 'shop');
  mkdirSync(project, { recursive: true });
  return { home: root, project, origin: { cwd: project, home: root, env: { XDG_CONFIG_HOME: path.join(root, '.config') } } };
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o600 });
}

const content = (place: string): string =>
  place.endsWith('.mjs')
    ? 'export default { timeout: 3 };\n'
    : place.endsWith('js')
      ? 'module.exports = { timeout: 3 };\n'
      : place === 'package.json'
        ? '{"gateway": {"timeout": 3}}'
        : '{"timeout": 3}';

describe('mayHaveConfig agrees with the search', () => {
  it('says no when no file is anywhere, and the search looks at nothing', async () => {
    const { origin } = home();
    expect(mayHaveConfig(origin)).toBe(false);
    expect(await loadConfigFiles(origin)).toEqual({ layers: [], looked: [], skipped: [] });
  });

  it.each(SEARCH_PLACES.filter((p) => !p.endsWith('.mjs')))('says yes for %s in a parent folder, where the search reads it', async (place) => {
    const { project, origin } = home();
    const file = path.join(path.dirname(project), place);
    write(file, content(place));
    expect(mayHaveConfig(origin)).toBe(true);
    expect((await loadConfigFiles(origin)).layers.map((l) => l.file)).toEqual([file]);
  });

  it.each(USER_PLACES.filter((p) => !p.endsWith('.mjs')))("says yes for %s in the user's config directory, where the search reads it", async (place) => {
    const { home: root, origin } = home();
    const file = path.join(root, '.config', 'gateway', place);
    write(file, content(place));
    expect(userConfigDir(origin)).toBe(path.dirname(file));
    expect(mayHaveConfig(origin)).toBe(true);
    expect((await loadConfigFiles(origin)).layers.map((l) => l.file)).toEqual([file]);
  });

  it('says yes for any package.json (the search then decides whether it has a gateway field)', async () => {
    const { project, origin } = home();
    write(path.join(project, 'package.json'), '{"name":"shop"}');
    expect(mayHaveConfig(origin)).toBe(true);
    expect((await loadConfigFiles(origin)).looked).toEqual([path.join(project, 'package.json')]);
  });

  it('says yes for a file it cannot trust (the search looks at it to warn)', async () => {
    const { project, origin } = home();
    write(path.join(project, '.gatewayrc'), '{}');
    chmodSync(project, 0o777);
    expect(mayHaveConfig(origin)).toBe(true);
    if (process.platform !== 'win32') expect((await loadConfigFiles(origin)).skipped).toHaveLength(1);
  });

  it('says no for files it would not reach: above HOME, or unknown names', async () => {
    const { home: root, origin } = home();
    write(path.join(path.dirname(root), `${path.basename(root)}-sibling`, '.gatewayrc'), '{}');
    write(path.join(root, 'work', 'shop', 'gateway.config.ts'), 'export default {}');
    write(path.join(root, '.config', 'gateway', 'config.ts'), 'export default {}');
    write(path.join(root, 'work', 'shop', '.config', 'gatewayrc'), '{}');
    expect(mayHaveConfig(origin)).toBe(false);
    expect(await loadConfigFiles(origin)).toEqual({ layers: [], looked: [], skipped: [] });
  });

  it('a broken symbolic link: no to both', async () => {
    const { project, origin } = home();
    symlinkSync(path.join(project, 'missing'), path.join(project, '.gatewayrc'));
    expect(mayHaveConfig(origin)).toBe(false);
    expect((await loadConfigFiles(origin)).looked).toEqual([]);
  });

  it('a name in another case: the same answer as the search (no on a case-sensitive disk, yes where the disk ignores case)', async () => {
    const { project, origin } = home();
    write(path.join(project, '.GatewayRC'), '{"timeout": 3}');
    const looked = (await loadConfigFiles(origin)).looked.length > 0;
    expect(mayHaveConfig(origin)).toBe(looked);
    expect(looked).toBe(existsSync(path.join(project, '.gatewayrc')));
  });

  it.skipIf(process.getuid?.() === 0)('a folder it may read files in but not list: yes (root reads any folder: run as another user)', async () => {
    const { project, origin } = home();
    write(path.join(project, '.gatewayrc'), '{"timeout": 3}');
    chmodSync(project, 0o311);
    try {
      expect(mayHaveConfig(origin)).toBe(true);
    } finally {
      chmodSync(project, 0o755);
    }
  });

  it('randomised layouts: whenever the check says no, the search looks at nothing', async () => {
    // A small deterministic generator: files sprinkled over the home, the project and the user
    // directory, with names gw reads and names it does not.
    let seed = 42;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = [...SEARCH_PLACES.filter((p) => !p.endsWith('.mjs')), 'gatewayrc', '.gatewayrc.toml', 'README.md', '.git'];
    let saidNo = 0;
    for (let round = 0; round < 40; round++) {
      const { home: root, project, origin } = home();
      const dirs = [project, path.dirname(project), root, path.join(root, '.config', 'gateway')];
      for (let k = next(3); k > 0; k--) {
        const dir = dirs[next(dirs.length)] as string;
        const userDir = dir.endsWith(path.join('.config', 'gateway'));
        const place = userDir
          ? ([...USER_PLACES.filter((p) => !p.endsWith('.mjs')), 'settings.json'][next(7)] as string)
          : (names[next(names.length)] as string);
        write(path.join(dir, place), content(place));
      }
      const says = mayHaveConfig(origin);
      const result = await loadConfigFiles(origin);
      if (!says) {
        saidNo++;
        expect(result.looked).toEqual([]);
      } else {
        // It said yes because one of the search's own candidates exists.
        const { user, project: byDir } = candidateFiles(origin);
        expect([user, ...byDir].flat().some((c) => existsSync(c.file))).toBe(true);
      }
    }
    expect(saidNo).toBeGreaterThan(0);
    expect(saidNo).toBeLessThan(40);
  });
});

describe('projectDirs', () => {
  it('inside HOME: from the working directory up to HOME, included', () => {
    const { home: root, project } = home();
    expect(projectDirs({ cwd: project, home: root })).toEqual([project, path.dirname(project), root]);
  });

  it('inside HOME: project roots do not stop the walk', () => {
    const { home: root, project } = home();
    mkdirSync(path.join(project, '.git'));
    expect(projectDirs({ cwd: project, home: root })).toEqual([project, path.dirname(project), root]);
  });

  it('at HOME: HOME only', () => {
    const { home: root } = home();
    expect(projectDirs({ cwd: root, home: root })).toEqual([root]);
  });

  it('HOME given through a symbolic link still stops the walk', () => {
    const { home: root, project } = home();
    const link = `${root}-link`;
    symlinkSync(root, link);
    expect(projectDirs({ cwd: project, home: link })).toEqual([project, path.dirname(project), root]);
  });

  it('outside HOME: up to the first directory holding .git or package.json', () => {
    const { home: root } = home();
    const outside = temp('gw-outside-');
    const deep = path.join(outside, 'repo', 'pkg', 'src');
    mkdirSync(deep, { recursive: true });
    mkdirSync(path.join(outside, 'repo', '.git'));
    expect(projectDirs({ cwd: deep, home: root })).toEqual([deep, path.join(outside, 'repo', 'pkg'), path.join(outside, 'repo')]);
    writeFileSync(path.join(outside, 'repo', 'pkg', 'package.json'), '{}');
    expect(projectDirs({ cwd: deep, home: root })).toEqual([deep, path.join(outside, 'repo', 'pkg')]);
  });

  it('outside HOME without a project root: up to the filesystem root', () => {
    const { home: root } = home();
    const outside = temp('gw-outside-');
    const dirs = projectDirs({ cwd: outside, home: root });
    expect(dirs[0]).toBe(outside);
    for (let i = 1; i < dirs.length; i++) expect(dirs[i]).toBe(path.dirname(dirs[i - 1] as string));
    const last = dirs[dirs.length - 1] as string;
    // The filesystem root, unless a project root above the temporary directory (outside the test's control) came first.
    expect(last === path.parse(outside).root || isProjectRoot(last)).toBe(true);
  });

  it('with no HOME at all: as outside HOME', () => {
    const outside = temp('gw-outside-');
    mkdirSync(path.join(outside, '.git'));
    expect(projectDirs({ cwd: outside, home: '' })).toEqual([outside]);
  });
});

describe('userConfigDir', () => {
  it.each<[NodeJS.ProcessEnv, string, NodeJS.Platform, string | undefined]>([
    [{ XDG_CONFIG_HOME: '/xdg' }, '/home/u', 'linux', '/xdg/gateway'],
    [{}, '/home/u', 'linux', '/home/u/.config/gateway'],
    [{ XDG_CONFIG_HOME: '' }, '/home/u', 'linux', '/home/u/.config/gateway'],
    [{ XDG_CONFIG_HOME: 'relative' }, '/home/u', 'linux', '/home/u/.config/gateway'],
    [{ XDG_CONFIG_HOME: '/xdg' }, '/Users/u', 'darwin', '/xdg/gateway'],
    [{}, '/Users/u', 'darwin', '/Users/u/.config/gateway'],
    [{}, '', 'linux', undefined],
  ])('%j, home %j on %s → %j', (env, homeDir, platform, expected) => {
    expect(userConfigDir({ env, home: homeDir, platform })).toBe(expected);
  });
});
