import { describe, expect, it } from 'vitest';
import { configRun } from '../../src/commands/config.js';
import { resolveConfigReport } from '../../src/config/resolve.js';
import { IOStreams } from '../../src/output/iostreams.js';

describe('configRun', () => {
  const report = resolveConfigReport({
    flags: { timeout: '5' },
    env: { GATEWAY_MERCHANT_KEY: 'mk_live_abcdefgh1234', GATEWAY_BASE_URL: 'https://gateway.example' },
    layers: [],
  });

  it('a table of every setting with its source; keys masked to their last four characters', async () => {
    const t = IOStreams.test();
    await configRun({ io: t.io, report: async () => report });
    const out = t.stdout();
    expect(out).toMatch(/baseUrl\s+https:\/\/gateway\.example\/\s+env GATEWAY_BASE_URL/);
    expect(out).toMatch(/merchantKey\s+••••1234\s+env GATEWAY_MERCHANT_KEY/);
    expect(out).toMatch(/payoutKey\s+\(not set\)/);
    expect(out).toMatch(/timeout\s+5 s\s+--timeout/);
    expect(out).toMatch(/api\s+legacy\s+default/);
    expect(out).not.toContain('abcdefgh');
    expect(t.stderr()).toMatch(/Next: gw doctor/);
  });

  it('--json: each setting {value, source} or null', async () => {
    const t = IOStreams.test({ json: true });
    await configRun({ io: t.io, report: async () => report });
    const doc = JSON.parse(t.stdout()) as { settings: Record<string, unknown>; problems: string[] };
    expect(doc.settings.merchantKey).toEqual({ value: '••••1234', source: 'env GATEWAY_MERCHANT_KEY' });
    expect(doc.settings.payoutKey).toBeNull();
    expect(doc.problems).toEqual([]);
    expect(t.stderr()).toBe('');
  });

  it('a bad value: the table is printed all the same, the row says why', async () => {
    const bad = resolveConfigReport({ flags: {}, env: { GATEWAY_BASE_URL: 'http://gateway.example', GATEWAY_TIMEOUT: 'soon' }, layers: [] });
    const t = IOStreams.test();
    await configRun({ io: t.io, report: async () => bad });
    expect(t.stdout()).toMatch(/baseUrl\s+http:\/\/gateway\.example\s+env GATEWAY_BASE_URL\s+✗ base URL from env GATEWAY_BASE_URL uses plain http/);
    expect(t.stdout()).toMatch(/timeout\s+soon\s+env GATEWAY_TIMEOUT\s+✗ timeout from env GATEWAY_TIMEOUT must be a number/);
    expect(t.stdout()).toMatch(/merchantKey\s+\(not set\)/);
    expect(t.stderr()).toMatch(/Next: fix what is marked ✗/);
  });

  it.each([
    ['https://merchant:hunter2@gateway.example', 'https://****@gateway.example', 'must not carry credentials'],
    ['http://merchant:hunter2@[::1', 'http://****@[::1', 'is not a URL: http://****@[::1'],
  ])('a base URL with a password (%s): shown and reported with it masked, table and JSON', async (url, masked, problem) => {
    const bad = resolveConfigReport({ flags: {}, env: { GATEWAY_BASE_URL: url }, layers: [] });
    const t = IOStreams.test();
    await configRun({ io: t.io, report: async () => bad });
    expect(t.stdout()).toContain(masked);
    expect(t.stdout()).toContain(problem);
    const j = IOStreams.test({ json: true });
    await configRun({ io: j.io, report: async () => bad });
    const doc = JSON.parse(j.stdout()) as { settings: { baseUrl: { value: string; problem: string } } };
    expect(doc.settings.baseUrl.value).toBe(masked);
    expect(doc.settings.baseUrl.problem).toContain(problem);
    for (const text of [t.stdout(), t.stderr(), j.stdout(), j.stderr()]) expect(text).not.toContain('hunter2');
  });

  it('nothing set: says so and names gw init as the next step', async () => {
    const empty = resolveConfigReport({ flags: {}, env: {}, layers: [] });
    const t = IOStreams.test();
    await configRun({ io: t.io, report: async () => empty });
    expect(t.stdout()).toMatch(/baseUrl\s+\(not set\)/);
    expect(t.stdout()).toContain('(none found)');
    expect(t.stderr()).toMatch(/Nothing is set up yet\. Next: run gw init/);
  });
});
