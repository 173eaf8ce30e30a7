// Tests for src/config/resolve.ts: precedence flag > env > selected profile > file top level for
// every key, sources, profiles, type checks, timeout and base URL rules, key masking. Layering of
// the user and project files is in config-layers.test.ts; finding and reading files in
// config-load.test.ts.

import { describe, expect, it } from 'vitest';
import { ConfigError, ExitCode, type GwError } from '../../src/errors.js';
import {
  DEFAULT_TIMEOUT_SECONDS,
  describeSource,
  keysInFile,
  maskKey,
  parseBaseUrl,
  parseTimeout,
  resolveConfig,
  type ConfigFlags,
  type ResolvedConfig,
  type Source,
} from '../../src/config/resolve.js';

const FILE = '/home/merchant/shop/.gatewayrc';

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as GwError).exitCode).toBe(ExitCode.CONFIG);
    expect((error as GwError).exitCode).toBe(78);
    return error as ConfigError;
  }
  throw new Error('did not throw');
}

function resolve(flags: ConfigFlags, env: NodeJS.ProcessEnv, content?: unknown): ResolvedConfig {
  return resolveConfig({ flags, env, layers: content === undefined ? [] : [{ file: FILE, level: 'project', content }] });
}

// ---------------------------------------------------------------------------------------------
// resolve.ts
// ---------------------------------------------------------------------------------------------

type Layer = 'flag' | 'env' | 'profile' | 'top';
interface KeyCase {
  key: 'baseUrl' | 'merchantKey' | 'payoutKey' | 'timeout';
  flag: keyof ConfigFlags;
  flagName: string;
  env: string;
  values: Record<Layer, string | number>;
  /** What the resolved setting's value is for a layer's value. */
  read: (config: ResolvedConfig) => unknown;
  expected: Record<Layer, unknown>;
}

const KEY_CASES: KeyCase[] = [
  {
    key: 'baseUrl',
    flag: 'baseUrl',
    flagName: '--base-url',
    env: 'GATEWAY_BASE_URL',
    values: { flag: 'https://flag.example/', env: 'https://env.example/', profile: 'https://profile.example/', top: 'https://top.example/' },
    read: (c) => c.baseUrl?.value.href,
    expected: { flag: 'https://flag.example/', env: 'https://env.example/', profile: 'https://profile.example/', top: 'https://top.example/' },
  },
  {
    key: 'merchantKey',
    flag: 'merchantKey',
    flagName: '--merchant-key',
    env: 'GATEWAY_MERCHANT_KEY',
    values: { flag: 'merchant-flag', env: 'merchant-env', profile: 'merchant-profile', top: 'merchant-top' },
    read: (c) => c.merchantKey?.value,
    expected: { flag: 'merchant-flag', env: 'merchant-env', profile: 'merchant-profile', top: 'merchant-top' },
  },
  {
    key: 'payoutKey',
    flag: 'payoutKey',
    flagName: '--payout-key',
    env: 'GATEWAY_PAYOUT_KEY',
    values: { flag: 'payout-flag', env: 'payout-env', profile: 'payout-profile', top: 'payout-top' },
    read: (c) => c.payoutKey?.value,
    expected: { flag: 'payout-flag', env: 'payout-env', profile: 'payout-profile', top: 'payout-top' },
  },
  {
    key: 'timeout',
    flag: 'timeout',
    flagName: '--timeout',
    env: 'GATEWAY_TIMEOUT',
    values: { flag: '1', env: '2.5', profile: 3, top: '4' },
    read: (c) => c.timeoutMs.value,
    expected: { flag: 1000, env: 2500, profile: 3000, top: 4000 },
  },
];

function setup(c: KeyCase, layers: readonly Layer[]): { flags: ConfigFlags; env: NodeJS.ProcessEnv; content: Record<string, unknown> } {
  const flags: ConfigFlags = { profile: 'prod' };
  const env: NodeJS.ProcessEnv = {};
  const content: Record<string, unknown> = { profiles: { prod: {} as Record<string, unknown> } };
  if (layers.includes('flag')) flags[c.flag] = String(c.values.flag);
  if (layers.includes('env')) env[c.env] = String(c.values.env);
  if (layers.includes('profile')) (content.profiles as { prod: Record<string, unknown> }).prod[c.key] = c.values.profile;
  if (layers.includes('top')) content[c.key] = c.values.top;
  return { flags, env, content };
}

function settingOf(config: ResolvedConfig, key: KeyCase['key']): { source: Source } | undefined {
  return key === 'timeout' ? config.timeoutMs : config[key];
}

describe('resolveConfig precedence: flag > env > selected profile > file top level', () => {
  const table: Array<[Layer, readonly Layer[]]> = [
    ['flag', ['flag', 'env', 'profile', 'top']],
    ['env', ['env', 'profile', 'top']],
    ['profile', ['profile', 'top']],
    ['top', ['top']],
    ['flag', ['flag', 'top']],
    ['env', ['env', 'top']],
    ['flag', ['flag', 'profile']],
  ];
  for (const c of KEY_CASES) {
    it.each(table)(`${c.key}: %s wins over %j`, (winner, layers) => {
      const { flags, env, content } = setup(c, layers);
      const config = resolve(flags, env, content);
      expect(c.read(config)).toBe(c.expected[winner]);
      const expectedSource: Source =
        winner === 'flag'
          ? { kind: 'flag', name: c.flagName }
          : winner === 'env'
            ? { kind: 'env', name: c.env }
            : winner === 'profile'
              ? { kind: 'file', file: FILE, level: 'project', profile: 'prod' }
              : { kind: 'file', file: FILE, level: 'project' };
      expect(settingOf(config, c.key)?.source).toEqual(expectedSource);
    });

    it(`${c.key}: a profile that is not selected is ignored`, () => {
      const { env, content } = setup(c, ['profile', 'top']);
      const config = resolve({}, env, content);
      expect(c.read(config)).toBe(c.expected.top);
      expect(settingOf(config, c.key)?.source).toEqual({ kind: 'file', file: FILE, level: 'project' });
    });

    it(`${c.key}: an empty flag or env value falls through to the next layer`, () => {
      const { content } = setup(c, ['profile']);
      const config = resolve({ profile: 'prod', [c.flag]: '' }, { [c.env]: '' }, content);
      expect(c.read(config)).toBe(c.expected.profile);
    });

    it(`${c.key}: flag and env work without any config file`, () => {
      expect(c.read(resolve({ [c.flag]: String(c.values.flag) }, { [c.env]: String(c.values.env) }))).toBe(c.expected.flag);
      expect(c.read(resolve({}, { [c.env]: String(c.values.env) }))).toBe(c.expected.env);
    });
  }

  it('with nothing set: no base URL, no keys, default timeout, no profile, no file, no warnings', () => {
    const config = resolve({}, {});
    expect(config.baseUrl).toBeUndefined();
    expect(config.merchantKey).toBeUndefined();
    expect(config.payoutKey).toBeUndefined();
    expect(config.profile).toBeUndefined();
    expect(config.file).toBeUndefined();
    expect(config.files).toEqual([]);
    expect(config.looked).toEqual([]);
    expect(config.skipped).toEqual([]);
    expect(config.timeoutMs).toEqual({ value: DEFAULT_TIMEOUT_SECONDS * 1000, source: { kind: 'default' } });
    expect(config.timeoutMs.value).toBe(15000);
    expect(config.warnings).toEqual([]);
  });

  it('reports the file that was read and freezes the result', () => {
    const config = resolve({}, {}, { merchantKey: 'k' });
    expect(config.file).toBe(FILE);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('layers mix key by key', () => {
    const config = resolve(
      { merchantKey: 'm-flag' },
      { GATEWAY_PROFILE: 'local', GATEWAY_TIMEOUT: '7' },
      {
        baseUrl: 'https://gateway.example.com',
        merchantKey: 'm-top',
        payoutKey: 'p-top',
        timeout: 15,
        profiles: { local: { baseUrl: 'http://127.0.0.1:8080', payoutKey: 'p-local' } },
      },
    );
    expect(config.baseUrl?.value.href).toBe('http://127.0.0.1:8080/');
    expect(config.baseUrl?.source).toEqual({ kind: 'file', file: FILE, level: 'project', profile: 'local' });
    expect(config.merchantKey).toEqual({ value: 'm-flag', source: { kind: 'flag', name: '--merchant-key' } });
    expect(config.payoutKey).toEqual({ value: 'p-local', source: { kind: 'file', file: FILE, level: 'project', profile: 'local' } });
    expect(config.timeoutMs).toEqual({ value: 7000, source: { kind: 'env', name: 'GATEWAY_TIMEOUT' } });
    expect(config.profile).toEqual({ value: 'local', source: { kind: 'env', name: 'GATEWAY_PROFILE' } });
  });

  it('trims keys', () => {
    const config = resolve({ merchantKey: '  m-key\n' }, { GATEWAY_PAYOUT_KEY: '\tp-key ' });
    expect(config.merchantKey?.value).toBe('m-key');
    expect(config.payoutKey?.value).toBe('p-key');
  });
});

describe('resolveConfig profiles', () => {
  const content = { merchantKey: 'top', profiles: { prod: { merchantKey: 'prod-key' }, staging: { merchantKey: 'staging-key' } } };

  it('GATEWAY_PROFILE selects a profile', () => {
    const config = resolve({}, { GATEWAY_PROFILE: 'staging' }, content);
    expect(config.merchantKey?.value).toBe('staging-key');
    expect(config.profile).toEqual({ value: 'staging', source: { kind: 'env', name: 'GATEWAY_PROFILE' } });
  });

  it('--profile wins over GATEWAY_PROFILE', () => {
    const config = resolve({ profile: 'prod' }, { GATEWAY_PROFILE: 'staging' }, content);
    expect(config.merchantKey?.value).toBe('prod-key');
    expect(config.merchantKey?.source).toEqual({ kind: 'file', file: FILE, level: 'project', profile: 'prod' });
    expect(config.profile).toEqual({ value: 'prod', source: { kind: 'flag', name: '--profile' } });
  });

  it('an empty --profile falls back to GATEWAY_PROFILE', () => {
    expect(resolve({ profile: '' }, { GATEWAY_PROFILE: 'staging' }, content).profile?.value).toBe('staging');
  });

  it('an unknown profile is exit 78 listing the known ones', () => {
    const error = configError(() => resolve({ profile: 'prdo' }, {}, content));
    expect(error.message).toBe(`profile "prdo" is not in ${FILE}`);
    expect(error.hint).toBe('profiles there: prod, staging');
  });

  it('an unknown profile from GATEWAY_PROFILE is exit 78 too', () => {
    const error = configError(() => resolve({}, { GATEWAY_PROFILE: 'nope' }, content));
    expect(error.message).toBe(`profile "nope" is not in ${FILE}`);
    expect(error.hint).toBe('profiles there: prod, staging');
  });

  it('a profile asked of a file without profiles says where to add it', () => {
    const error = configError(() => resolve({ profile: 'prod' }, {}, { merchantKey: 'k' }));
    expect(error.message).toBe(`profile "prod" is not in ${FILE}`);
    expect(error.hint).toBe(`add it under "profiles" in ${FILE}`);
  });

  it('a profile asked without any config file is exit 78', () => {
    const error = configError(() => resolve({ profile: 'prod' }, {}));
    expect(error.message).toBe('profile "prod" was asked for, but no config file was found');
    expect(error.hint).toBe('create .gatewayrc (see .gatewayrc.example) or pass --config <file>');
  });

  it('a profile that is not an object is unknown', () => {
    const error = configError(() => resolve({ profile: 'prod' }, {}, { profiles: { prod: 'https://x.example' } }));
    expect(error.message).toBe(`profile "prod" is not in ${FILE}`);
    expect(error.hint).toBe('profiles there: prod');
  });

  it('sanitises profile names in messages', () => {
    const error = configError(() => resolve({ profile: 'a\u001b[2Jb' }, {}, { profiles: { 'x\u001b]0;t\u0007y': {} } }));
    expect(error.message).toBe(`profile "ab" is not in ${FILE}`);
    expect(error.hint).toBe('profiles there: xy');
  });

  // Profiles are looked up as own keys only: "__proto__" must not find Object.prototype and be
  // accepted as an empty profile.
  it.each(['__proto__'])('the inherited name %j is an unknown profile too (exit 78)', (name) => {
    const error = configError(() => resolve({ profile: name }, {}, JSON.parse('{"merchantKey":"top","profiles":{"prod":{"merchantKey":"p"}}}')));
    expect(error.message).toBe(`profile "${name}" is not in ${FILE}`);
    expect(error.hint).toBe('profiles there: prod');
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])('the inherited name %j is an unknown profile (exit 78)', (name) => {
    const error = configError(() => resolve({ profile: name }, {}, { profiles: { prod: {} } }));
    expect(error.message).toBe(`profile "${name}" is not in ${FILE}`);
  });
});

describe('resolveConfig file validation', () => {
  it.each([
    ['merchantKey a number', { merchantKey: 123 }, `${FILE}: "merchantKey" must be a string`],
    ['payoutKey a boolean', { payoutKey: true }, `${FILE}: "payoutKey" must be a string`],
    ['baseUrl an object', { baseUrl: { href: 'https://x' } }, `${FILE}: "baseUrl" must be a string`],
    ['baseUrl an array', { baseUrl: ['https://x'] }, `${FILE}: "baseUrl" must be a string`],
    ['timeout a boolean', { timeout: true }, `${FILE}: "timeout" must be a string or a number of seconds`],
    ['timeout an array', { timeout: [5] }, `${FILE}: "timeout" must be a string or a number of seconds`],
    ['a profile key a number', { profiles: { prod: { merchantKey: 42 } } }, `${FILE} (profile prod): "merchantKey" must be a string`],
    ['profiles an array', { profiles: [{ merchantKey: 'x' }] }, `config file ${FILE}: "profiles" must be an object of named profiles`],
    ['profiles a string', { profiles: 'prod' }, `config file ${FILE}: "profiles" must be an object of named profiles`],
  ])('%s → exit 78', (_name, content, message) => {
    const profiles = (content as { profiles?: unknown }).profiles;
    const selectProd = typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles) && 'prod' in profiles;
    const error = configError(() => resolve(selectProd ? { profile: 'prod' } : {}, {}, content));
    expect(error.message).toBe(message);
  });

  it.each([
    ['an array', [1]],
    ['a string', 'merchantKey: x'],
    ['a number', 5],
    ['null', null],
  ])('a file holding %s → exit 78', (_name, content) => {
    const error = configError(() => resolveConfig({ flags: {}, env: {}, layers: [{ file: FILE, level: 'project', content }] }));
    expect(error.message).toBe(`config file ${FILE} must hold an object of settings`);
  });

  it('null values are ignored', () => {
    const config = resolve({}, {}, { merchantKey: null, payoutKey: 'p' });
    expect(config.merchantKey).toBeUndefined();
    expect(config.payoutKey?.value).toBe('p');
  });

  it('unknown keys are warnings, at the top level and in the selected profile', () => {
    const config = resolve(
      { profile: 'prod' },
      {},
      {
        merchantKey: 'm',
        apiKey: 'x',
        profiles: { prod: { merchant_key: 'y', payoutKey: 'p' }, other: { ignored: 1 } },
      },
    );
    expect(config.merchantKey?.value).toBe('m');
    expect(config.warnings).toEqual([
      `${FILE}: unknown key "apiKey" ignored (known: baseUrl, api, merchantKey, payoutKey, generalKey, timeout, merchantName, receiptWidth, counterCurrency, counterPayCurrency, counterNetwork, counterHoldSeconds, profiles)`,
      `${FILE} (profile prod): unknown key "merchant_key" ignored (known: baseUrl, api, merchantKey, payoutKey, generalKey, timeout, merchantName, receiptWidth, counterCurrency, counterPayCurrency, counterNetwork, counterHoldSeconds, profiles)`,
    ]);
  });

  it('sanitises unknown key names in warnings', () => {
    expect(resolve({}, {}, { 'evil\u001b[2J\u202ekey': 1 }).warnings).toEqual([
      `${FILE}: unknown key "evilkey" ignored (known: baseUrl, api, merchantKey, payoutKey, generalKey, timeout, merchantName, receiptWidth, counterCurrency, counterPayCurrency, counterNetwork, counterHoldSeconds, profiles)`,
    ]);
  });

  it('a timeout given as a number in the file is seconds', () => {
    expect(resolve({}, {}, { timeout: 2.5 }).timeoutMs.value).toBe(2500);
    expect(resolve({}, {}, { timeout: 30 }).timeoutMs.value).toBe(30000);
  });

  it('a bad timeout or base URL names where it came from', () => {
    expect(configError(() => resolve({}, { GATEWAY_TIMEOUT: 'soon' })).message).toBe(
      'timeout from env GATEWAY_TIMEOUT must be a number of seconds from 0.001 to 3600 (got soon)',
    );
    expect(configError(() => resolve({}, {}, { timeout: 0 })).message).toBe(`timeout from ${FILE} must be a number of seconds from 0.001 to 3600 (got 0)`);
    expect(configError(() => resolve({ baseUrl: 'http://gateway.example.com' }, {})).message).toBe(
      'base URL from --base-url uses plain http to gateway.example.com: keys would cross the network unencrypted',
    );
    expect(configError(() => resolve({ profile: 'p' }, {}, { profiles: { p: { baseUrl: 'ftp://x.example' } } })).message).toBe(
      `base URL from ${FILE} (profile p) must be https:// (got ftp:)`,
    );
  });
});

describe('parseTimeout', () => {
  it.each([
    ['15', 15000],
    ['1', 1000],
    ['0.5', 500],
    ['2.25', 2250],
    ['0.001', 1],
    [' 7 ', 7000],
    ['3600', 3_600_000],
    ['3600.000', 3_600_000],
    ['007', 7000],
  ])('%j → %i ms', (text, ms) => {
    expect(parseTimeout(text, 'test')).toBe(ms);
  });

  it.each(['0', '0.0', '-1', '3600.001', '3601', '99999', 'abc', '', ' ', '1e3', '.5', '5.', '5s', '1,5', '+5', 'Infinity', 'NaN', '0x10'])(
    'rejects %j (exit 78)',
    (text) => {
      const error = configError(() => parseTimeout(text, '--timeout'));
      expect(error.message).toBe(`timeout from --timeout must be a number of seconds from 0.001 to 3600 (got ${text})`);
    },
  );

  // A positive timeout below half a millisecond would round to 0 ms, a deadline already passed.
  it.each(['0.0004', '0.0001', '0.00000001'])('rejects %j, which would round to a 0 ms deadline (exit 78)', (text) => {
    const error = configError(() => parseTimeout(text, '--timeout'));
    expect(error.message).toContain('timeout from --timeout');
  });
});

describe('parseBaseUrl', () => {
  it.each([
    ['https://gateway.example.com', 'https://gateway.example.com/'],
    ['https://gateway.example.com/api/', 'https://gateway.example.com/api/'],
    ['  https://gateway.example.com:8443  ', 'https://gateway.example.com:8443/'],
    ['HTTPS://Gateway.Example.COM', 'https://gateway.example.com/'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ['http://127.0.0.1', 'http://127.0.0.1/'],
    ['http://127.255.255.254:1', 'http://127.255.255.254:1/'],
    ['http://127.1.2.3/base', 'http://127.1.2.3/base'],
    ['http://[::1]:3000', 'http://[::1]:3000/'],
    ['http://[0:0:0:0:0:0:0:1]', 'http://[::1]/'],
    ['http://localhost:3000', 'http://localhost:3000/'],
    ['http://LOCALHOST', 'http://localhost/'],
    ['https://10.0.0.1', 'https://10.0.0.1/'],
  ])('accepts %j', (text, href) => {
    expect(parseBaseUrl(text, 'test').href).toBe(href);
  });

  it.each([
    ['http://gateway.example.com', 'uses plain http to gateway.example.com'],
    ['http://10.0.0.1', 'uses plain http to 10.0.0.1'],
    ['http://128.0.0.1', 'uses plain http to 128.0.0.1'],
    ['http://126.0.0.1', 'uses plain http to 126.0.0.1'],
    ['http://0.0.0.0', 'uses plain http to 0.0.0.0'],
    ['http://[::2]', 'uses plain http to [::2]'],
    ['http://localhost.evil.example', 'uses plain http to localhost.evil.example'],
    ['http://127.0.0.1.nip.io', 'uses plain http to 127.0.0.1.nip.io'],
    ['http://evil.example/127.0.0.1', 'uses plain http to evil.example'],
    ['http://mylocalhost', 'uses plain http to mylocalhost'],
    ['ftp://gateway.example.com', 'must be https:// (got ftp:)'],
    ['ws://localhost', 'must be https:// (got ws:)'],
    ['file:///etc/passwd', 'must be https:// (got file:)'],
    ['https://user:pass@gateway.example.com', 'must not carry credentials'],
    ['https://user@gateway.example.com', 'must not carry credentials'],
    ['http://user:pass@127.0.0.1', 'must not carry credentials'],
    ['https://gateway.example.com/?key=abc', 'must not have a query or fragment'],
    ['https://gateway.example.com/#frag', 'must not have a query or fragment'],
    ['gateway.example.com', 'is not a URL: gateway.example.com'],
    ['', 'is not a URL: '],
    ['https://', 'is not a URL: https://'],
    // A URL that does not parse is echoed with its user name and password masked.
    ['http://user:hunter2@[::1', 'is not a URL: http://****@[::1'],
    ['https://admin:pa/ss#w@[gateway', 'is not a URL: https://****@[gateway'],
    ['https://user:hunter2@gateway.example.com:99999', 'is not a URL: https://****@gateway.example.com:99999'],
  ])('rejects %j (exit 78)', (text, detail) => {
    const error = configError(() => parseBaseUrl(text, 'test'));
    expect(error.message).toBe(`base URL from test ${detail}${detail.startsWith('uses plain http') ? ': keys would cross the network unencrypted' : ''}`);
  });

  it.each([
    'https://gateway.example.com/a b',
    'https://gateway.example.com/\n/x',
    'https://gate\tway.example.com',
    'https://gateway.example.com\u0085',
    'https://gate\u200bway.example.com',
    'https://gateway.example.com\u00a0/x',
  ])('rejects %j: no spaces, control or invisible characters (exit 78)', (text) => {
    expect(configError(() => parseBaseUrl(text, 'test')).message).toBe(
      'base URL from test must not contain spaces, line breaks or other control or invisible characters',
    );
  });

  it('explains the http rule in the hint', () => {
    expect(configError(() => parseBaseUrl('http://gateway.example.com', 'x')).hint).toBe(
      'use https://, or http:// only for a loopback host (127.0.0.1, ::1, localhost)',
    );
  });
});

describe('describeSource', () => {
  it.each([
    [{ kind: 'flag', name: '--timeout' }, '--timeout'],
    [{ kind: 'env', name: 'GATEWAY_TIMEOUT' }, 'env GATEWAY_TIMEOUT'],
    [{ kind: 'file', file: '/a/.gatewayrc', level: 'project' }, '/a/.gatewayrc'],
    [{ kind: 'file', file: '/a/.gatewayrc', level: 'user', profile: 'prod' }, '/a/.gatewayrc (profile prod)'],
    [{ kind: 'default' }, 'default'],
    [{ kind: 'sandbox' }, 'sandbox'],
  ] as Array<[Source, string]>)('%j → %j', (source, text) => {
    expect(describeSource(source)).toBe(text);
  });
});

describe('maskKey', () => {
  it.each([
    ['abcdefghijkl', '••••ijkl'],
    ['123456789', '••••6789'],
    ['sk_live_0123456789abcdefWXYZ', '••••WXYZ'],
    ['12345678', '••••'],
    ['abcd', '••••'],
    ['a', '••••'],
    ['', '••••'],
    ['aaaaaaaaaaaaa\u001b[2J', '••••'],
  ])('%j → %j', (key, masked) => {
    expect(maskKey(key)).toBe(masked);
  });

  it('never shows a whole key, and shows at most its last four characters', () => {
    for (let length = 1; length <= 40; length++) {
      const key = Array.from({ length }, (_, i) => String.fromCharCode(65 + (i % 26))).join('');
      const masked = maskKey(key);
      expect(masked.includes(key)).toBe(false);
      const shown = masked.replace(/^•+/, '');
      expect(shown.length).toBeLessThanOrEqual(4);
      expect(key.endsWith(shown)).toBe(true);
    }
  });
});

describe('keysInFile', () => {
  it.each([
    [{ merchantKey: 'k' }, true],
    [{ payoutKey: 'k' }, true],
    [{ profiles: { prod: { merchantKey: 'k' } } }, true],
    [{ profiles: { a: {}, b: { payoutKey: 'k' } } }, true],
    [{ baseUrl: 'https://x', timeout: 5 }, false],
    [{ profiles: { prod: { baseUrl: 'https://x' } } }, false],
    [{ merchantKey: 123 }, false],
    [{ profiles: 'x' }, false],
    [{}, false],
    [null, false],
    [undefined, false],
    ['merchantKey', false],
    [[{ merchantKey: 'k' }], false],
  ])('%j → %s', (content, expected) => {
    expect(keysInFile(content)).toBe(expected);
  });
});

describe('api and generalKey', () => {
  it('api defaults to legacy; flag > env > file like every value; any case', () => {
    expect(resolveConfig({ flags: {}, env: {}, layers: [] }).api).toEqual({ value: 'legacy', source: { kind: 'default' } });
    expect(resolveConfig({ flags: {}, env: { GATEWAY_API: 'V1' }, layers: [] }).api).toEqual({ value: 'v1', source: { kind: 'env', name: 'GATEWAY_API' } });
    expect(resolveConfig({ flags: { api: 'legacy' }, env: { GATEWAY_API: 'v1' }, layers: [] }).api.value).toBe('legacy');
  });

  it('an api that is neither legacy nor v1 is exit 78 naming where it came from', () => {
    expect(() => resolveConfig({ flags: {}, env: { GATEWAY_API: 'v2' }, layers: [] })).toThrow(/api from env GATEWAY_API must be legacy or v1/);
  });

  it('generalKey comes from --general-key, GATEWAY_GENERAL_KEY or the file, trimmed', () => {
    const config = resolveConfig({ flags: {}, env: { GATEWAY_GENERAL_KEY: '  gk_abcdefgh1234 ' }, layers: [] });
    expect(config.generalKey).toEqual({ value: 'gk_abcdefgh1234', source: { kind: 'env', name: 'GATEWAY_GENERAL_KEY' } });
  });
});
