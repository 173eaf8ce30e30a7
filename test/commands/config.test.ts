import { describe, expect, it } from 'vitest';
import { configRun } from '../../src/commands/config.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { IOStreams } from '../../src/output/iostreams.js';

describe('configRun', () => {
  const config = resolveConfig({
    flags: { timeout: '5' },
    env: { GATEWAY_MERCHANT_KEY: 'mk_live_abcdefgh1234', GATEWAY_BASE_URL: 'https://gateway.example' },
    layers: [],
  });

  it('a table of every setting with its source; keys masked to their last four characters', async () => {
    const t = IOStreams.test();
    await configRun({ io: t.io, config: async () => config });
    const out = t.stdout();
    expect(out).toMatch(/baseUrl\s+https:\/\/gateway\.example\/\s+env GATEWAY_BASE_URL/);
    expect(out).toMatch(/merchantKey\s+••••1234\s+env GATEWAY_MERCHANT_KEY/);
    expect(out).toMatch(/payoutKey\s+\(not set\)/);
    expect(out).toMatch(/timeout\s+5 s\s+--timeout/);
    expect(out).not.toContain('abcdefgh');
  });

  it('--json: each setting {value, source} or null', async () => {
    const t = IOStreams.test({ json: true });
    await configRun({ io: t.io, config: async () => config });
    const doc = JSON.parse(t.stdout()) as { settings: Record<string, unknown> };
    expect(doc.settings.merchantKey).toEqual({ value: '••••1234', source: 'env GATEWAY_MERCHANT_KEY' });
    expect(doc.settings.payoutKey).toBeNull();
  });
});
