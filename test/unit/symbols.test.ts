// Currency symbols from the gateway are compared by ASCII rules: a symbol outside ASCII is no
// coin gw knows, never folded into one ("uſdt" is not USDT, nor "ＵＳＤＴ").
import { describe, expect, it } from 'vitest';
import { buildPaymentUri } from '../../src/payment-uri/index.js';
import { findToken, normalizeSymbol } from '../../src/payment-uri/networks.js';

const TRON = 'TXnWf7nFiycmzNYwJF3wgqRTyumiuhgBZe';
const ETH = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('normalizeSymbol', () => {
  it.each([
    ['usdt', 'USDT'],
    [' Usdt ', 'USDT'],
  ])('%j → %s', (text, symbol) => {
    expect(normalizeSymbol(text)).toBe(symbol);
  });

  it.each(['uſdt', 'ＵＳＤＴ', 'uﬅ', 'usdt\u200b'])('%j matches no coin', (text) => {
    expect(normalizeSymbol(text)).not.toBe('USDT');
    expect(findToken('tron', text)).toBeUndefined();
  });
});

describe('a payment in a symbol that only Unicode folding makes USDT', () => {
  it('gets no USDT transfer link on Ethereum (it was built as an ERC-20 USDT transfer)', () => {
    const good = buildPaymentUri({ network: 'Ethereum Network', payCurrency: 'usdt', address: ETH, payAmount: '25', memo: null });
    expect(good.uri).toContain('/transfer?address=');
    let uri: string | undefined;
    try {
      uri = buildPaymentUri({ network: 'Ethereum Network', payCurrency: 'uſdt', address: ETH, payAmount: '25', memo: null }).uri;
    } catch {
      uri = undefined;
    }
    expect(uri ?? '').not.toContain('/transfer');
  });

  it('the Tron address is still just the address', () => {
    expect(buildPaymentUri({ network: 'Tron Network', payCurrency: 'uſdt', address: TRON, payAmount: '25', memo: null }).uri).toBe(TRON);
  });
});
