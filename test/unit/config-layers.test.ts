// Layering of the user and project config files in resolveConfig (src/config/resolve.ts): for
// every key, flag > env > project profile > project top level > user profile > user top level;
// profiles defined in either file; the explicit file alone; warnings for skipped files and for
// keys in files others can read; what the result reports about files.
import { describe, expect, it } from 'vitest';
import { ConfigError, ExitCode } from '../../src/errors.js';
import type { LoadedFile } from '../../src/config/load.js';
import { resolveConfig, skippedWarning, type ConfigFlags, type ResolvedConfig, type Source } from '../../src/config/resolve.js';

const USER = '/home/merchant/.config/gateway/config.yaml';
const PROJECT = '/home/merchant/shop/.gatewayrc';
const EXPLICIT = '/etc/gateway/ci.json';

type Where = 'flag' | 'env' | 'projectProfile' | 'projectTop' | 'userProfile' | 'userTop';
const ORDER: readonly Where[] = ['flag', 'env', 'projectProfile', 'projectTop', 'userProfile', 'userTop'];

interface KeyCase {
  key: 'baseUrl' | 'merchantKey' | 'payoutKey' | 'timeout';
  flag: keyof ConfigFlags;
  flagName: string;
  env: string;
  value: (where: Where) => string | number;
  read: (config: ResolvedConfig) => unknown;
  expected: (where: Where) => unknown;
}

const KEYS: KeyCase[] = [
  {
    key: 'baseUrl',
    flag: 'baseUrl',
    flagName: '--base-url',
    env: 'GATEWAY_BASE_URL',
    value: (w) => `https://${w.toLowerCase()}.example/`,
    read: (c) => c.baseUrl?.value.href,
    expected: (w) => `https://${w.toLowerCase()}.example/`,
  },
  {
    key: 'merchantKey',
    flag: 'merchantKey',
    flagName: '--merchant-key',
    env: 'GATEWAY_MERCHANT_KEY',
    value: (w) => `merchant-${w}`,
    read: (c) => c.merchantKey?.value,
    expected: (w) => `merchant-${w}`,
  },
  {
    key: 'payoutKey',
    flag: 'payoutKey',
    flagName: '--payout-key',
    env: 'GATEWAY_PAYOUT_KEY',
    value: (w) => `payout-${w}`,
    read: (c) => c.payoutKey?.value,
    expected: (w) => `payout-${w}`,
  },
  {
    key: 'timeout',
    flag: 'timeout',
    flagName: '--timeout',
    env: 'GATEWAY_TIMEOUT',
    value: (w) => ORDER.indexOf(w) + 1,
    read: (c) => c.timeoutMs.value,
    expected: (w) => (ORDER.indexOf(w) + 1) * 1000,
  },
];

function expectedSource(c: KeyCase, where: Where): Source {
  switch (where) {
    case 'flag':
      return { kind: 'flag', name: c.flagName };
    case 'env':
      return { kind: 'env', name: c.env };
    case 'projectProfile':
      return { kind: 'file', file: PROJECT, level: 'project', profile: 'prod' };
    case 'projectTop':
      return { kind: 'file', file: PROJECT, level: 'project' };
    case 'userProfile':
      return { kind: 'file', file: USER, level: 'user', profile: 'prod' };
    case 'userTop':
      return { kind: 'file', file: USER, level: 'user' };
  }
}

/** Both files exist (each with an empty "prod" profile); the value is set at every place in `present`. */
function build(c: KeyCase, present: readonly Where[]): { flags: ConfigFlags; env: NodeJS.ProcessEnv; layers: LoadedFile[] } {
  const flags: ConfigFlags = { profile: 'prod' };
  const env: NodeJS.ProcessEnv = {};
  const user: Record<string, unknown> = { profiles: { prod: {} } };
  const project: Record<string, unknown> = { profiles: { prod: {} } };
  const profileOf = (file: Record<string, unknown>): Record<string, unknown> => (file.profiles as { prod: Record<string, unknown> }).prod;
  for (const where of present) {
    const value = c.value(where);
    if (where === 'flag') flags[c.flag] = String(value);
    if (where === 'env') env[c.env] = String(value);
    if (where === 'projectProfile') profileOf(project)[c.key] = value;
    if (where === 'projectTop') project[c.key] = value;
    if (where === 'userProfile') profileOf(user)[c.key] = value;
    if (where === 'userTop') user[c.key] = value;
  }
  return {
    flags,
    env,
    layers: [
      { file: USER, level: 'user', content: user },
      { file: PROJECT, level: 'project', content: project },
    ],
  };
}

/** Every non-empty subset of the six places: the highest one present must win. */
const SUBSETS: Where[][] = [];
for (let mask = 1; mask < 1 << ORDER.length; mask++) SUBSETS.push(ORDER.filter((_, i) => (mask & (1 << i)) !== 0));

describe('layering: flag > env > project profile > project top > user profile > user top', () => {
  for (const c of KEYS) {
    it(`${c.key}: in all ${SUBSETS.length} combinations the highest place present wins`, () => {
      for (const present of SUBSETS) {
        const winner = ORDER.find((w) => present.includes(w)) as Where;
        const { flags, env, layers } = build(c, present);
        const config = resolveConfig({ flags, env, layers });
        expect(c.read(config), `${present.join(',')}`).toBe(c.expected(winner));
        const setting = c.key === 'timeout' ? config.timeoutMs : config[c.key];
        expect(setting?.source, `${present.join(',')}`).toEqual(expectedSource(c, winner));
      }
    });
  }

  it('the issue: a project file that sets only timeout does not hide the keys of the user file', () => {
    const config = resolveConfig({
      flags: {},
      env: {},
      layers: [
        { file: USER, level: 'user', content: { baseUrl: 'https://gateway.example', merchantKey: 'mk-user', payoutKey: 'pk-user', timeout: 20 } },
        { file: PROJECT, level: 'project', content: { timeout: 5 } },
      ],
    });
    expect(config.baseUrl?.source).toEqual({ kind: 'file', file: USER, level: 'user' });
    expect(config.merchantKey).toEqual({ value: 'mk-user', source: { kind: 'file', file: USER, level: 'user' } });
    expect(config.payoutKey?.value).toBe('pk-user');
    expect(config.timeoutMs).toEqual({ value: 5000, source: { kind: 'file', file: PROJECT, level: 'project' } });
    expect(config.file).toBe(PROJECT);
    expect(config.files).toEqual([
      { file: PROJECT, level: 'project' },
      { file: USER, level: 'user' },
    ]);
  });

  it('only the user file: its values, and it is the file reported', () => {
    const config = resolveConfig({ flags: {}, env: {}, layers: [{ file: USER, level: 'user', content: { merchantKey: 'mk' } }] });
    expect(config.merchantKey?.source).toEqual({ kind: 'file', file: USER, level: 'user' });
    expect(config.file).toBe(USER);
  });

  it('an explicit file is one layer with level "explicit"', () => {
    const config = resolveConfig({
      flags: { profile: 'ci' },
      env: {},
      layers: [{ file: EXPLICIT, level: 'explicit', content: { merchantKey: 'top', profiles: { ci: { payoutKey: 'p' } } } }],
    });
    expect(config.merchantKey?.source).toEqual({ kind: 'file', file: EXPLICIT, level: 'explicit' });
    expect(config.payoutKey?.source).toEqual({ kind: 'file', file: EXPLICIT, level: 'explicit', profile: 'ci' });
    expect(config.files).toEqual([{ file: EXPLICIT, level: 'explicit' }]);
  });
});

describe('profiles across files', () => {
  const user = (content: Record<string, unknown>): LoadedFile => ({ file: USER, level: 'user', content });
  const project = (content: Record<string, unknown>): LoadedFile => ({ file: PROJECT, level: 'project', content });

  it.each([
    ['only in the user file', [user({ profiles: { prod: { merchantKey: 'u-prod' } } }), project({ timeout: 5 })], 'u-prod', USER],
    ['only in the project file', [user({ merchantKey: 'u-top' }), project({ profiles: { prod: { merchantKey: 'p-prod' } } })], 'p-prod', PROJECT],
    [
      'in both: the project profile wins',
      [user({ profiles: { prod: { merchantKey: 'u-prod' } } }), project({ profiles: { prod: { merchantKey: 'p-prod' } } })],
      'p-prod',
      PROJECT,
    ],
  ] as Array<[string, LoadedFile[], string, string]>)('a profile defined %s is used', (_name, layers, value, file) => {
    const config = resolveConfig({ flags: { profile: 'prod' }, env: {}, layers });
    expect(config.merchantKey?.value).toBe(value);
    expect(config.merchantKey?.source).toMatchObject({ kind: 'file', file, profile: 'prod' });
  });

  it('the project top level wins over the user profile (the project file is nearer)', () => {
    const config = resolveConfig({
      flags: { profile: 'prod' },
      env: {},
      layers: [user({ profiles: { prod: { merchantKey: 'u-prod' } } }), project({ merchantKey: 'p-top' })],
    });
    expect(config.merchantKey?.source).toEqual({ kind: 'file', file: PROJECT, level: 'project' });
  });

  it('a profile in neither file is exit 78 naming both files and listing every profile', () => {
    let error: unknown;
    try {
      resolveConfig({ flags: { profile: 'nope' }, env: {}, layers: [user({ profiles: { a: {}, b: {} } }), project({ profiles: { b: {}, c: {} } })] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(ExitCode.CONFIG);
    expect((error as ConfigError).message).toBe(`profile "nope" is not in ${PROJECT} or ${USER}`);
    expect((error as ConfigError).hint).toBe('profiles there: b, c, a');
  });

  it('a profile asked where no file has profiles says to add it to the nearest file', () => {
    expect(() => resolveConfig({ flags: { profile: 'x' }, env: {}, layers: [user({}), project({})] })).toThrow(
      expect.objectContaining({ hint: `add it under "profiles" in ${PROJECT}` }),
    );
  });

  it('both files are validated: a wrong type in the user file is exit 78 even when the project sets the key', () => {
    expect(() => resolveConfig({ flags: {}, env: {}, layers: [user({ merchantKey: 42 }), project({ merchantKey: 'k' })] })).toThrow(
      `${USER}: "merchantKey" must be a string`,
    );
  });
});

describe('warnings', () => {
  it('one line per skipped file, naming it and why, before other warnings', () => {
    const skipped = [
      { file: '/tmp/.gatewayrc.js', level: 'project' as const, reason: 'its directory /tmp is writable by group or others' },
      { file: '/srv/x/package.json', level: 'project' as const, reason: 'it belongs to another user (uid 1001)' },
    ];
    const config = resolveConfig({
      flags: {},
      env: {},
      layers: [{ file: PROJECT, level: 'project', content: { bogus: 1 } }],
      skipped,
      looked: ['/tmp/.gatewayrc.js', PROJECT],
    });
    expect(config.warnings).toEqual([
      'skipped config file /tmp/.gatewayrc.js: its directory /tmp is writable by group or others (to read it anyway, name it with --config or list its directory in GATEWAY_TRUSTED_DIRS)',
      'skipped config file /srv/x/package.json: it belongs to another user (uid 1001) (to read it anyway, name it with --config or list its directory in GATEWAY_TRUSTED_DIRS)',
      `${PROJECT}: unknown key "bogus" ignored (known: baseUrl, api, merchantKey, payoutKey, generalKey, timeout, merchantName, receiptWidth, counterCurrency, counterPayCurrency, counterNetwork, counterHoldSeconds, profiles)`,
    ]);
    expect(config.skipped).toEqual(skipped);
    expect(config.looked).toEqual(['/tmp/.gatewayrc.js', PROJECT]);
  });

  it('a skipped file name with control characters is made inert', () => {
    expect(skippedWarning({ file: '/tmp/\u001b[2Jx', level: 'project', reason: 'r' })).toContain('/tmp/x: r');
  });

  it.each([
    [0o644, { merchantKey: 'k' }, true],
    [0o640, { profiles: { a: { payoutKey: 'k' } } }, true],
    [0o604, { payoutKey: 'k' }, true],
    [0o600, { merchantKey: 'k' }, false],
    [0o400, { merchantKey: 'k' }, false],
    [0o644, { baseUrl: 'https://x.example' }, false],
    [undefined, { merchantKey: 'k' }, false],
  ])('mode %s with %j → "chmod 600" warning: %s', (mode, content, warns) => {
    const layer: LoadedFile = { file: USER, level: 'user', content, ...(mode !== undefined && { mode }) };
    const warnings = resolveConfig({ flags: {}, env: {}, layers: [layer] }).warnings;
    if (warns && process.platform !== 'win32') {
      expect(warnings).toEqual([`${USER} holds a key and is readable by group or others; fix it with: chmod 600 ${USER}`]);
    } else {
      expect(warnings).toEqual([]);
    }
  });

  it('the permission warning is given for each file that holds a key', () => {
    const warnings = resolveConfig({
      flags: {},
      env: {},
      layers: [
        { file: USER, level: 'user', content: { merchantKey: 'k' }, mode: 0o644 },
        { file: PROJECT, level: 'project', content: { payoutKey: 'k' }, mode: 0o664 },
      ],
    }).warnings;
    expect(warnings.filter((w) => w.includes('chmod 600'))).toHaveLength(process.platform === 'win32' ? 0 : 2);
  });
});
