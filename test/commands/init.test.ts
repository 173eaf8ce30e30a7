// initRun with IOStreams.test() and a scripted prompter, against the embedded sandbox on
// 127.0.0.1: what it asks and in which order, a refused key named and asked again, the file it
// writes (0600, YAML, profile or top level, other settings kept), Ctrl-C leaving nothing behind,
// and the non-interactive path for scripts (flags and environment, live checks, exit codes).
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRun, type InitOptions } from '../../src/commands/init.js';
import { createFactory } from '../../src/cmdutil/factory.js';
import { ManualClock } from '../../src/util/clock.js';
import { IOStreams } from '../../src/output/iostreams.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { emptyDir } from '../support/cli.js';
import { refusedPort } from '../support/misbehaving-gateway.js';
import { ScriptedPrompter, type Answer } from '../support/prompter.js';
import { withSandbox } from '../support/sandbox.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

interface Run {
  home: string;
  file: string;
  stdout: string;
  stderr: string;
  error?: unknown;
  prompter?: ScriptedPrompter;
}

async function init(options: {
  answers?: Answer[];
  yes?: boolean;
  verify?: boolean;
  sandbox?: boolean;
  flags?: InitOptions['flags'];
  env?: NodeJS.ProcessEnv;
  home?: string;
  json?: boolean;
  /** stdout and stderr on a terminal this many columns wide. */
  width?: number;
}): Promise<Run> {
  const home = options.home ?? emptyDir('gw-init-');
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), ...options.env };
  const prompter = options.answers === undefined ? undefined : new ScriptedPrompter(options.answers);
  const t = IOStreams.test({
    color: false,
    ...(prompter && { prompter, stdinTTY: true, stderrTTY: true }),
    ...(options.json && { json: true }),
    ...(options.width !== undefined && { width: options.width, stdoutTTY: true, stderrTTY: true }),
  });
  const f = createFactory({ io: t.io, env, cwd: home, home, interrupt: new AbortController().signal, clock: new ManualClock(Date.now()) });
  f.applyGlobals({ ...(options.json && { json: true }) });
  let error: unknown;
  try {
    await initRun({
      io: t.io,
      yes: options.yes ?? false,
      verify: options.verify ?? true,
      sandbox: options.sandbox ?? false,
      flags: options.flags ?? {},
      env,
      home,
      connect: (target) => f.connect(target),
      releaseDeadline: () => f.releaseDeadline(),
    });
  } catch (e) {
    error = e;
  } finally {
    await f.close();
  }
  return { home, file: path.join(home, '.config', 'gateway', 'config.yaml'), stdout: t.stdout(), stderr: t.stderr(), error, ...(prompter && { prompter }) };
}

describe('gw init on a terminal (scripted answers)', () => {
  it('asks gateway, URL, keys (no echo), profile; checks each key live; writes 0600; says what it wrote where', async () => {
    const r = await init({
      answers: [
        { ask: /^Which gateway\?/, kind: 'select', answer: 'url' },
        { ask: /^Gateway base URL/, kind: 'input', answer: sandbox.url },
        { ask: /^Merchant API key/, kind: 'secret', answer: sandbox.merchantKey },
        { ask: /^Payout API key/, kind: 'secret', answer: sandbox.payoutKey },
        { ask: /^Profile name/, kind: 'input', answer: '' },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.prompter?.done).toBe(true);
    expect(readFileSync(r.file, 'utf8')).toBe(`baseUrl: "${sandbox.url}"\nmerchantKey: "${sandbox.merchantKey}"\npayoutKey: "${sandbox.payoutKey}"\n`);
    expect(statSync(r.file).mode & 0o777).toBe(0o600);
    expect(r.stderr).toMatch(/✓ merchant key accepted \(\d+ accepted currencies\)/);
    expect(r.stderr).toMatch(/✓ payout key accepted/);
    expect(r.stdout).toContain(`Created ${r.file} (mode 0600):`);
    expect(r.stdout).toMatch(/merchantKey\s+••••-key\s+✓ accepted/);
    expect(r.stderr).toMatch(/gw doctor\s+# checks the set-up/);
    expect(r.stdout + r.stderr).not.toContain(sandbox.merchantKey);
  });

  it('a refused key: says which and why, asks again; an unchecked payout key can be left out; a named profile', async () => {
    const r = await init({
      answers: [
        { ask: /^Which gateway\?/, answer: 'url' },
        { ask: /^Gateway base URL/, answer: 'http://gateway.example' }, // refused by validation: plain http
        { ask: /^Gateway base URL/, answer: sandbox.url },
        { ask: /^Merchant API key/, answer: 'mk_wrong_000011112222' },
        { ask: /^What now with the merchant key\?/, kind: 'select', answer: 'again' },
        { ask: /^Merchant API key/, answer: sandbox.merchantKey },
        { ask: /^Payout API key/, answer: 'pk_wrong_333344445555' },
        { ask: /^What now with the payout key\?/, kind: 'select', answer: 'skip' },
        { ask: /^Profile name/, answer: 'shop' },
        { ask: /make profile shop your default/, kind: 'confirm', answer: false },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.prompter?.asked.find((q) => q.message.startsWith('Gateway base URL'))?.validation).toMatch(/plain http/);
    expect(r.stderr).toMatch(/✗ merchant key refused: Invalid merchant API key/);
    expect(r.stderr).toMatch(/✗ payout key refused: /);
    expect(readFileSync(r.file, 'utf8')).toBe(`profiles:\n  shop:\n    baseUrl: "${sandbox.url}"\n    merchantKey: "${sandbox.merchantKey}"\n`);
    expect(r.stdout).toContain('(mode 0600, profile shop)');
    expect(r.stderr).toContain('gw --profile shop doctor');
    expect(r.stdout + r.stderr).not.toMatch(/mk_wrong_000011112222|pk_wrong_333344445555/);
  });

  it('a named profile and no defaults yet: offers to make it the default, and writes it at the top level too', async () => {
    const r = await init({
      answers: [
        { ask: /^Which gateway\?/, answer: 'url' },
        { ask: /^Gateway base URL/, answer: sandbox.url },
        { ask: /^Merchant API key/, answer: sandbox.merchantKey },
        { ask: /^Payout API key/, answer: '' },
        { ask: /^Profile name/, answer: 'shop' },
        { ask: /^You have no defaults yet: make profile shop your default/, kind: 'confirm', answer: true },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.prompter?.done).toBe(true);
    expect(readFileSync(r.file, 'utf8')).toBe(
      `profiles:\n  shop:\n    baseUrl: "${sandbox.url}"\n    merchantKey: "${sandbox.merchantKey}"\nbaseUrl: "${sandbox.url}"\nmerchantKey: "${sandbox.merchantKey}"\n`,
    );
    expect(r.stdout).toContain('(mode 0600, profile shop, also your defaults)');
    expect(r.stderr).toMatch(/gw doctor\s+# checks/);
    expect(r.stderr).not.toContain('GATEWAY_PROFILE');
  });

  it('a named profile when defaults exist: nothing more asked', async () => {
    const home = emptyDir('gw-init-');
    const dir = path.join(home, '.config', 'gateway');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, 'config.yaml'), `baseUrl: "${sandbox.url}"\n`, { mode: 0o600 });
    const r = await init({
      home,
      answers: [
        { ask: /^Which gateway\?/, answer: 'url' },
        { ask: /^Gateway base URL/, answer: sandbox.url },
        { ask: /^Merchant API key/, answer: sandbox.merchantKey },
        { ask: /^Payout API key/, answer: '' },
        { ask: /^Profile name/, answer: 'shop' },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.prompter?.done).toBe(true);
    expect(r.stderr).toContain('gw --profile shop doctor');
  });

  it('Ctrl-C at a question: exit 130 and the existing file untouched, no temporary file left', async () => {
    const home = emptyDir('gw-init-');
    const dir = path.join(home, '.config', 'gateway');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, 'config.yaml'), '# mine\ntimeout: 9\n', { mode: 0o600 });
    const r = await init({
      home,
      answers: [
        { ask: /^Which gateway\?/, answer: 'url' },
        { ask: /^Gateway base URL/, answer: sandbox.url },
        { ask: /^Merchant API key/, interrupt: true },
      ],
    });
    expect(r.error).toMatchObject({ exitCode: 130 });
    expect(readFileSync(r.file, 'utf8')).toBe('# mine\ntimeout: 9\n');
    expect(readdirSync(dir)).toEqual(['config.yaml']);
  });

  it('keeps the rest of an existing file, and asks before replacing what is there', async () => {
    const home = emptyDir('gw-init-');
    const dir = path.join(home, '.config', 'gateway');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, 'config.yaml'), `# mine\ntimeout: 9\nbaseUrl: ${sandbox.url}\nmerchantKey: ${sandbox.merchantKey}\n`, { mode: 0o600 });
    const r = await init({
      home,
      answers: [
        { ask: /^Which gateway\?/, answer: 'url' },
        { ask: /^Gateway base URL/, answer: '' }, // the default: the URL already there
        { ask: /^Merchant API key \(Enter keeps ••••-key\)/, answer: '' },
        { ask: /^Payout API key/, answer: '' },
        { ask: /^Profile name/, answer: '' },
        { ask: /already has baseUrl, merchantKey:\s+replace\?/, kind: 'confirm', answer: true },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(readFileSync(r.file, 'utf8')).toBe(`# mine\ntimeout: 9\nbaseUrl: "${sandbox.url}"\nmerchantKey: "${sandbox.merchantKey}"\n`);
    expect(r.stdout).toContain(`Updated ${r.file}`);
  });
});

describe('gw init for scripts (--yes, or no terminal)', () => {
  it('flags and environment, each key checked; JSON summary with masked keys', async () => {
    const r = await init({
      yes: true,
      json: true,
      flags: { baseUrl: sandbox.url },
      env: { GATEWAY_MERCHANT_KEY: sandbox.merchantKey, GATEWAY_PAYOUT_KEY: sandbox.payoutKey },
    });
    expect(r.error).toBeUndefined();
    expect(JSON.parse(r.stdout)).toEqual({
      file: r.file,
      created: true,
      mode: '0600',
      profile: null,
      settings: { baseUrl: `${sandbox.url}/`, merchantKey: '••••-key', payoutKey: '••••-key' },
      checks: { merchantKey: 'accepted', payoutKey: 'accepted' },
    });
  });

  it('a refused key: exit 77 naming the key and its source; nothing written', async () => {
    const r = await init({ yes: true, flags: { baseUrl: sandbox.url, payoutKey: 'pk_wrong_987654321' }, env: { GATEWAY_MERCHANT_KEY: sandbox.merchantKey } });
    expect(r.error).toMatchObject({
      exitCode: 77,
      message: expect.stringMatching(/^the gateway refused the payout key \(from --payout-key\): .*nothing was written$/),
    });
    expect(existsSync(r.file)).toBe(false);
  });

  it('an unreachable gateway: exit 69, nothing written; --no-verify writes without checking', async () => {
    const url = `http://127.0.0.1:${await refusedPort()}`;
    const r = await init({ yes: true, flags: { baseUrl: url, merchantKey: 'mk_live_123456789' } });
    expect(r.error).toMatchObject({ exitCode: 69, hint: expect.stringContaining('--no-verify writes without checking') });
    expect(existsSync(r.file)).toBe(false);
    const unchecked = await init({ yes: true, verify: false, flags: { baseUrl: url, merchantKey: 'mk_live_123456789' } });
    expect(unchecked.error).toBeUndefined();
    expect(readFileSync(unchecked.file, 'utf8')).toContain('merchantKey: "mk_live_123456789"');
    expect(unchecked.stdout).toMatch(/merchantKey\s+••••6789\s+not checked/);
  });

  it('no base URL and no terminal to ask: exit 64 saying what to give', async () => {
    const r = await init({ yes: false });
    expect(r.error).toMatchObject({ exitCode: 64, message: "gw init needs the gateway's base URL (it cannot ask: stdin is not a terminal)" });
  });

  it('--sandbox: the sandbox keys under profile "sandbox"; not running is not a failure', async () => {
    const r = await init({ yes: true, sandbox: true });
    expect(r.error).toBeUndefined();
    expect(readFileSync(r.file, 'utf8')).toBe(
      'profiles:\n  sandbox:\n    baseUrl: "http://127.0.0.1:8080"\n    merchantKey: "sandbox-merchant-key"\n    payoutKey: "sandbox-payout-key"\n',
    );
    expect(r.stderr).toMatch(/gw sandbox --port 8080\s+# in another terminal/);
  });
});

describe('gw init at 80 columns: words never split, lines within the width', () => {
  /** A home whose config path is long, as a real one can be. */
  const longHome = (): string => {
    const home = path.join(emptyDir('gw-init-'), 'a-rather-long-folder-name-for-the-shop', 'and-another-level-of-it');
    mkdirSync(home, { recursive: true });
    return home;
  };
  const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');
  /** Lines wider than 80 columns that are more than one word. */
  const tooWide = (text: string): string[] => text.split('\n').filter((line) => line.length > 80 && words(line).length > 1);

  it('the file written (profile shop), the key checks and the Next block: wrapped at word boundaries, comments aligned, commands whole', async () => {
    const home = longHome();
    const flags = { baseUrl: sandbox.url, merchantKey: sandbox.merchantKey, profile: 'shop' };
    const tty = await init({ yes: true, home, width: 80, flags, env: { GATEWAY_PAYOUT_KEY: sandbox.payoutKey } });
    expect(tty.error).toBeUndefined();
    const file = tty.file;
    expect(file.length).toBeGreaterThan(70);
    expect(tooWide(tty.stdout)).toEqual([]);
    expect(tooWide(tty.stderr)).toEqual([]);
    // The same words as without a terminal (nothing split, nothing lost; a wrapped comment's
    // next line starts with its own #), the path on one line.
    const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '' && w !== '#');
    const plain = await init({ yes: true, home, flags, env: { GATEWAY_PAYOUT_KEY: sandbox.payoutKey } });
    expect(words(tty.stdout).map((w) => w.replace(/^Created$/, 'Updated'))).toEqual(words(plain.stdout));
    expect(words(tty.stderr)).toEqual(words(plain.stderr));
    expect(tty.stdout.split('\n').some((line) => line.includes(file))).toBe(true);
    // The Next block: each command whole on its line, the comments in one column.
    const next = tty.stderr.slice(tty.stderr.indexOf('Next:'));
    for (const cmd of ['gw --profile shop doctor', 'gw --profile shop pay 25 USDT']) expect(next.split('\n').some((l) => l.startsWith(`  ${cmd} `))).toBe(true);
    const columns = next
      .split('\n')
      .filter((l) => l.includes('#'))
      .map((l) => l.indexOf('#'));
    expect(columns.length).toBeGreaterThan(2);
    expect(new Set(columns).size).toBe(1);
  });

  it('a sandbox set-up: the longer commands keep their comments aligned, and the questions fit', async () => {
    const r = await init({ yes: true, sandbox: true, home: longHome(), width: 80 });
    expect(r.error).toBeUndefined();
    expect(tooWide(r.stdout + r.stderr)).toEqual([]);
    const next = r.stderr.slice(r.stderr.indexOf('Next:'));
    expect(next).toMatch(/^ {2}gw --profile sandbox doctor {2,}# /m);
    expect(next.split('\n').some((l) => l.startsWith('  gw sandbox --port 8080 '))).toBe(true);
    const columns = next
      .split('\n')
      .filter((l) => l.includes('#'))
      .map((l) => l.indexOf('#'));
    expect(new Set(columns).size).toBe(1);
  });

  it('the questions on a terminal: wrapped to its width less the question mark, words whole', async () => {
    const home = longHome();
    const dir = path.join(home, '.config', 'gateway');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(dir, 'config.yaml'), `profiles:\n  shop:\n    baseUrl: "${sandbox.url}"\n`, { mode: 0o600 });
    const r = await init({
      home,
      width: 80,
      answers: [
        { ask: /^Which gateway\?/, answer: 'url' },
        { ask: /^Gateway base URL/, answer: sandbox.url },
        { ask: /^Merchant API key/, answer: sandbox.merchantKey },
        { ask: /^Payout API key/, answer: '' },
        { ask: /^Profile name/, answer: 'shop' },
        { ask: /already has baseUrl\s+in\s+profile\s+shop:\s+replace\?/, kind: 'confirm', answer: true },
        { ask: /^You have no defaults yet: make profile shop your default/, kind: 'confirm', answer: true },
      ],
    });
    expect(r.error).toBeUndefined();
    expect(r.prompter?.done).toBe(true);
    // "? " before the question, " (Y/n)" after it: all within 80 columns.
    for (const q of r.prompter?.asked ?? []) for (const line of q.message.split('\n')) if (words(line).length > 1) expect(line.length).toBeLessThanOrEqual(72);
    const replace = r.prompter?.asked.find((q) => q.message.includes('replace?'))?.message ?? '';
    expect(replace.split('\n')[0]).toBe(path.join(dir, 'config.yaml'));
    const defaults = r.prompter?.asked.find((q) => q.message.startsWith('You have no defaults'))?.message ?? '';
    // The opening lines: the path whole on its line.
    expect(r.stderr.split('\n')).toContain(`${path.join(dir, 'config.yaml')}.`);
    expect(words(defaults).join(' ')).toBe(
      'You have no defaults yet: make profile shop your default (its values also at the top level, used without --profile)?',
    );
    expect(tooWide(r.stdout + r.stderr)).toEqual([]);
  });
});
