// The merchant's accepted currencies as last fetched (gw doctor, gw init), kept per base URL in
// $XDG_CACHE_HOME/gateway/currencies.json (default ~/.cache/gateway/) for completion, which never
// calls the gateway (src/commands/completion.ts).
import path from 'node:path';

/** $XDG_CACHE_HOME/gateway (absolute only), else ~/.cache/gateway. */
export function cacheDir(env: NodeJS.ProcessEnv, home: string): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'gateway');
  return home ? path.join(home, '.cache', 'gateway') : undefined;
}

export function cacheKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}

export async function readCurrencyCache(env: NodeJS.ProcessEnv, home: string): Promise<Record<string, string[]>> {
  const dir = cacheDir(env, home);
  if (dir === undefined) return {};
  try {
    const { readFile } = await import('node:fs/promises');
    const data = JSON.parse(await readFile(path.join(dir, 'currencies.json'), 'utf8')) as unknown;
    if (typeof data !== 'object' || data === null) return {};
    const out: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      const list = (value as { currencies?: unknown } | null)?.currencies;
      if (Array.isArray(list)) out[key] = list.filter((s): s is string => typeof s === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/.test(s));
    }
    return out;
  } catch {
    return {};
  }
}

/** Keeps the merchant's accepted currencies for completion (gw doctor, gw init); best effort. */
export async function rememberCurrencies(env: NodeJS.ProcessEnv, home: string, baseUrl: URL, currencies: readonly string[]): Promise<void> {
  const dir = cacheDir(env, home);
  if (dir === undefined) return;
  const clean = [...new Set(currencies.filter((s) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/.test(s)))].sort();
  const cache = await readCurrencyCache(env, home);
  const data: Record<string, { currencies: string[] }> = {};
  for (const [key, list] of Object.entries(cache)) data[key] = { currencies: list };
  data[cacheKey(baseUrl.href)] = { currencies: clean };
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { writeConfigAtomic } = await import('./write.js');
  const file = path.join(dir, 'currencies.json');
  const { lstat } = await import('node:fs/promises');
  await writeConfigAtomic(file, `${JSON.stringify(data, null, 2)}\n`, await lstat(file).catch(() => undefined));
}
