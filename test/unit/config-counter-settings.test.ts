// The settings of gw counter and of receipts (src/config/resolve.ts): each from the environment or
// a file (profile before top level), checked strictly, with one-line messages naming where the bad
// value came from; counterHoldSeconds has a default.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { DEFAULT_COUNTER_HOLD_SECONDS, ENV_NAMES, resolveConfig, type ResolvedConfig, type SettingKey } from '../../src/config/resolve.js';

const FILE = '/home/merchant/shop/.gatewayrc';

function resolve(env: NodeJS.ProcessEnv, content?: unknown, profile?: string): ResolvedConfig {
  return resolveConfig({
    flags: profile === undefined ? {} : { profile },
    env,
    layers: content === undefined ? [] : [{ file: FILE, level: 'project', content }],
  });
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('did not throw');
}

type NewKey = 'merchantName' | 'receiptWidth' | 'counterCurrency' | 'counterPayCurrency' | 'counterNetwork' | 'counterHoldSeconds';

const GOOD: Array<{ key: NewKey; text: string | number; value: string | number }> = [
  { key: 'merchantName', text: '  Café Lumière  ', value: 'Café Lumière' },
  { key: 'receiptWidth', text: '42', value: 42 },
  { key: 'receiptWidth', text: 48, value: 48 },
  { key: 'receiptWidth', text: ' 32 ', value: 32 },
  { key: 'counterCurrency', text: 'eur', value: 'EUR' },
  { key: 'counterCurrency', text: 'USDT', value: 'USDT' },
  { key: 'counterPayCurrency', text: 'usdc.e', value: 'USDC.E' },
  { key: 'counterNetwork', text: 'Tron Network', value: 'Tron Network' },
  { key: 'counterHoldSeconds', text: '5', value: 5 },
  { key: 'counterHoldSeconds', text: 600, value: 600 },
];

const BAD: Array<{ key: NewKey; text: string | number; message: RegExp }> = [
  { key: 'merchantName', text: 'Shop\u200bName', message: /merchantName from .* must be one line of visible characters/ },
  { key: 'merchantName', text: 'A'.repeat(49), message: /merchantName from .* must be at most 48 characters/ },
  { key: 'merchantName', text: '   ', message: /merchantName from .* must be one line/ },
  { key: 'receiptWidth', text: '40', message: /receiptWidth from .* must be 32, 42 or 48 \(got 40\)/ },
  { key: 'receiptWidth', text: 42.5, message: /receiptWidth .* must be 32, 42 or 48/ },
  { key: 'receiptWidth', text: '0x20', message: /must be 32, 42 or 48/ },
  { key: 'counterCurrency', text: 'US D', message: /counterCurrency from .* must be a currency symbol/ },
  { key: 'counterCurrency', text: 'ＵＳＤ', message: /counterCurrency .* must be a currency symbol/ },
  { key: 'counterPayCurrency', text: 'usd', message: /counterPayCurrency from .* must be a coin a payer can send.*USD is fiat/ },
  { key: 'counterNetwork', text: 'Tron\nNetwork', message: /counterNetwork from .* must be one line/ },
  { key: 'counterNetwork', text: 'N'.repeat(61), message: /counterNetwork .* at most 60 characters/ },
  { key: 'counterHoldSeconds', text: '0', message: /counterHoldSeconds from .* must be a whole number of seconds from 1 to 600 \(got 0\)/ },
  { key: 'counterHoldSeconds', text: '2.5', message: /whole number of seconds from 1 to 600/ },
  { key: 'counterHoldSeconds', text: 601, message: /from 1 to 600 \(got 601\)/ },
  { key: 'counterHoldSeconds', text: '-3', message: /from 1 to 600/ },
];

const settingOf = (config: ResolvedConfig, key: NewKey) => config[key as keyof ResolvedConfig] as { value: unknown; source: unknown } | undefined;

describe('counter and receipt settings', () => {
  it.each(GOOD)('$key $text from the environment and from a file reads as $value', ({ key, text, value }) => {
    const env = ENV_NAMES[key as SettingKey];
    expect(settingOf(resolve({ [env]: String(text) }), key)).toEqual({ value, source: { kind: 'env', name: env } });
    expect(settingOf(resolve({}, { [key]: text }), key)).toEqual({ value, source: { kind: 'file', file: FILE, level: 'project' } });
  });

  it.each(BAD)('$key $text is refused in one line naming the source', ({ key, text, message }) => {
    const env = ENV_NAMES[key as SettingKey];
    const fromEnv = failure(() => resolve({ [env]: String(text) }));
    expect(fromEnv).toMatch(message);
    expect(fromEnv).toContain(`env ${env}`);
    expect(fromEnv).not.toContain('\n');
    expect(failure(() => resolve({}, { [key]: text }))).toContain(FILE);
  });

  it('the environment names', () => {
    expect(ENV_NAMES).toMatchObject({
      merchantName: 'GATEWAY_MERCHANT_NAME',
      receiptWidth: 'GATEWAY_RECEIPT_WIDTH',
      counterCurrency: 'GATEWAY_COUNTER_CURRENCY',
      counterPayCurrency: 'GATEWAY_COUNTER_PAY_CURRENCY',
      counterNetwork: 'GATEWAY_COUNTER_NETWORK',
      counterHoldSeconds: 'GATEWAY_COUNTER_HOLD_SECONDS',
    });
  });

  it('unset: absent, and counterHoldSeconds takes its default', () => {
    const config = resolve({});
    expect(config.merchantName).toBeUndefined();
    expect(config.receiptWidth).toBeUndefined();
    expect(config.counterCurrency).toBeUndefined();
    expect(config.counterHoldSeconds).toEqual({ value: DEFAULT_COUNTER_HOLD_SECONDS, source: { kind: 'default' } });
  });

  it('environment before the profile, the profile before the top level', () => {
    const content = { counterCurrency: 'USD', merchantName: 'Top', profiles: { shop: { counterCurrency: 'EUR', merchantName: 'Shop' } } };
    expect(resolve({}, content, 'shop').counterCurrency?.value).toBe('EUR');
    expect(resolve({}, content).counterCurrency?.value).toBe('USD');
    expect(resolve({ GATEWAY_COUNTER_CURRENCY: 'gbp' }, content, 'shop').counterCurrency?.value).toBe('GBP');
    expect(resolve({}, content, 'shop').merchantName?.value).toBe('Shop');
  });

  it('a value of the wrong type in a file is refused', () => {
    expect(failure(() => resolve({}, { counterHoldSeconds: true }))).toBe(`${FILE}: "counterHoldSeconds" must be a string or a number of seconds`);
    expect(failure(() => resolve({}, { merchantName: 7 }))).toBe(`${FILE}: "merchantName" must be a string`);
  });
});
