// The runs that make gw's V8 code caches at build time, for the npm package (scripts/build.mjs)
// and the one-file executable (scripts/build-sea.mjs): each common command once, in an empty home,
// first the ones that need no gateway, then the rest against a `gw sandbox` the caller starts on
// 127.0.0.1. Each build says how to run gw (`run`) and where the caches go; this says what runs.
// Only an optimisation: a command without a cache compiles as usual.

/** The first line a `gw sandbox --json` prints is its URL; undefined if none comes in time. */
function sandboxUrl(sandbox, timeoutMs) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    let text = '';
    sandbox.stdout.on('data', (chunk) => {
      text += chunk;
      if (!text.includes('\n')) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(text.slice(0, text.indexOf('\n'))).url);
      } catch {
        resolve(undefined);
      }
    });
    sandbox.on('exit', () => resolve(undefined));
  });
}

/**
 * Runs the common commands: `run(args, env)` runs gw once and returns spawnSync's result (`env`
 * defaults to `base`); `startSandbox()` spawns `gw sandbox --json` (stdout piped). Every request
 * goes to 127.0.0.1: a sandbox URL of any other host ends the runs.
 */
export async function runCommonCommands({ base, run, startSandbox, timeoutMs }) {
  run(['config', '--json']);
  run(['pay', '25', 'USDT', '--json', '--sandbox', '--order-id', 'build-cache']);
  const sandbox = startSandbox();
  try {
    const url = await sandboxUrl(sandbox, timeoutMs);
    if (typeof url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d+\/?$/.test(url)) return;
    const env = { ...base, GATEWAY_BASE_URL: url, GATEWAY_MERCHANT_KEY: 'sandbox-merchant-key', GATEWAY_PAYOUT_KEY: 'sandbox-payout-key' };
    const paid = run(['pay', '25', 'USDT', '--json', '--order-id', 'build-cache'], env);
    const trackId = /"trackId": "([a-z0-9]+)"/.exec(paid.stdout ?? '')?.[1] ?? 'sbx0';
    for (const args of [
      ['status', trackId, '--json'],
      ['payments', '--json'],
      ['rate', 'BTC', 'USDT', '--json'],
      ['currencies', '--json'],
      ['balance', '--json'],
      ['doctor', '--json'],
    ])
      run(args, env);
  } finally {
    sandbox.kill();
  }
}
