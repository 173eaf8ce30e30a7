// The quick "is there any config file at all?" check must never say no where cosmiconfig would
// find a file: each case below is checked against cosmiconfig's own search.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { globalConfigDir, mayHaveConfig, SEARCH_PLACES, searchDirs } from '../../src/config/candidates.js';
import { loadConfigFile } from '../../src/config/load.js';

const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
afterEach(() => {
  process.env.HOME = saved.HOME;
  if (saved.XDG_CONFIG_HOME === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
});

/** A home folder with a project two levels down; HOME points at it so the walk stops there. */
function home(): { home: string; project: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'gw-candidates-'));
  const project = path.join(root, 'work', 'shop');
  mkdirSync(project, { recursive: true });
  process.env.HOME = root;
  process.env.XDG_CONFIG_HOME = path.join(root, '.config');
  return { home: root, project };
}

describe('mayHaveConfig', () => {
  it('says no when no file is anywhere, and cosmiconfig agrees', async () => {
    const { project } = home();
    expect(mayHaveConfig(project)).toBe(false);
    expect(await loadConfigFile({ cwd: project })).toBeUndefined();
  });

  it.each(SEARCH_PLACES.filter((p) => p !== 'package.json'))('says yes for %s in a parent folder, where cosmiconfig finds it', async (place) => {
    const { project } = home();
    const file = path.join(path.dirname(project), place);
    writeFileSync(file, place.endsWith('js') ? 'module.exports = { timeout: 3 };' : '{"timeout": 3}');
    if (place.endsWith('.mjs')) writeFileSync(file, 'export default { timeout: 3 };');
    expect(mayHaveConfig(project)).toBe(true);
    expect((await loadConfigFile({ cwd: project }))?.file).toBe(file);
  });

  it("says yes for a file in the user's config directory", async () => {
    const { home: root, project } = home();
    const dir = path.join(root, '.config', 'gateway');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'config.yaml'), 'timeout: 3\n');
    expect(globalConfigDir()).toBe(dir);
    expect(mayHaveConfig(project)).toBe(true);
    expect((await loadConfigFile({ cwd: project }))?.file).toBe(path.join(dir, 'config.yaml'));
  });

  it('says yes for any package.json (cosmiconfig then decides whether it has a gateway field)', () => {
    const { project } = home();
    writeFileSync(path.join(project, 'package.json'), '{"name":"shop"}');
    expect(mayHaveConfig(project)).toBe(true);
  });

  it('walks up to the home folder and no further', () => {
    const { home: root, project } = home();
    expect(searchDirs(project)).toEqual([project, path.dirname(project), root]);
  });
});
