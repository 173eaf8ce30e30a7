// gw payout's confirmation in a real terminal (tmux, a private socket): what will be sent is on the
// screen (at 80x24 too: the address whole on one line); answering "n" or Enter sends nothing (exit 1),
// Ctrl-C sends nothing (exit 130, said), answering "y" sends exactly one POST /v1/payout,
// counted by a recording gateway on 127.0.0.1. Skipped where tmux is not installed. Bounded: every
// wait has a deadline, the tmux server is this test's own.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, tempDir } from '../support/gw.js';
import { json, type MisbehavingGateway, startMisbehavingGateway, TEST_PAYOUT_KEY, TRON_ADDRESS } from '../support/misbehaving-gateway.js';

const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
const SOCKET = `gw-payout-test-${process.pid}`;
const SESSION = 'payout';
const GENERAL_KEY = 'gk_live_SECRET_7a6b5c4d3e2f';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8', timeout: 5000 });
}

const NARROW = 'narrow';
const screen = (session = SESSION, joined = true): string => tmux('capture-pane', '-t', session, '-p', ...(joined ? ['-J'] : []), '-S', '-200');

async function waitFor(pattern: RegExp, ms = 15_000, session = SESSION, joined = true): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const text = screen(session, joined);
    if (pattern.test(text)) return text;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} on the screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ENVELOPE = (data: unknown) => json({ data, message: 'ok', error: {}, status: 200, version: '1.0.0' });
let server: MisbehavingGateway;

beforeAll(async () => {
  if (!hasTmux) return;
  server = await startMisbehavingGateway((req) => {
    const url = new URL(req.path, 'http://x');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /v1/common/currencies') {
      return ENVELOPE({
        USDT: { symbol: 'USDT', status: true, networks: { TRC20: { network: 'TRC20', name: 'Tron Network', withdraw_fee: 1, withdraw_min: 0.5 } } },
      });
    }
    if (route === 'GET /v1/general/account/balance') return ENVELOPE({ USDT: 100 });
    if (route === 'POST /v1/payout' && req.headers.payout_api_key === TEST_PAYOUT_KEY) return ENVELOPE({ track_id: '258298451', status: 'processing' });
    return json({ data: {}, message: 'no', error: { type: 'invalid_request_error', key: 'not_found', message: 'no' }, status: 404, version: '1.0.0' }, 404);
  });
  const home = tempDir('gw-tmux-payout-');
  const bin = path.join(home, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  writeFileSync(path.join(bin, 'gw'), `#!/bin/sh\nexec "${process.execPath}" "${GW_BIN}" "$@"\n`);
  chmodSync(path.join(bin, 'gw'), 0o755);
  const env = [
    `HOME=${home}`,
    `XDG_CONFIG_HOME=${home}/.config`,
    `PATH=${bin}:/usr/bin:/bin`,
    'LANG=C.UTF-8',
    'TERM=xterm-256color',
    'PS1=$ ',
    `GATEWAY_BASE_URL=${server.url}`,
    'GATEWAY_API=v1',
    `GATEWAY_PAYOUT_KEY=${TEST_PAYOUT_KEY}`,
    `GATEWAY_GENERAL_KEY=${GENERAL_KEY}`,
  ];
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', SESSION, '-x', '140', '-y', '40', 'env', '-i', ...env, 'bash', '--norc', '--noprofile');
  tmux('new-session', '-d', '-s', NARROW, '-x', '80', '-y', '24', 'env', '-i', ...env, 'bash', '--norc', '--noprofile');
});

afterAll(async () => {
  if (!hasTmux) return;
  spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  await server.close();
});

describe.skipIf(!hasTmux)('gw payout: the confirmation in a terminal', () => {
  const typed = (text: string): void => void tmux('send-keys', '-t', SESSION, '-l', text);
  const enter = (): void => void tmux('send-keys', '-t', SESSION, 'Enter');
  const posts = (): number => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payout').length;

  it('shows what will be sent; "n" sends nothing (exit 1); "y" sends exactly one payout (exit 0)', async () => {
    typed(`clear; gw payout 12.5 USDT ${TRON_ADDRESS} --network tron; echo "EXIT=$?"`);
    enter();
    const asked = await waitFor(/Send this payout\?/);
    for (const text of ['12.5 USDT', 'TRC20', TRON_ADDRESS, '1 USDT', 'gw-po-']) expect(asked).toContain(text);
    typed('n');
    enter();
    const declined = await waitFor(/EXIT=\d+/);
    expect(declined).toMatch(/EXIT=1/);
    expect(declined).toContain('not confirmed: nothing was sent');
    expect(posts()).toBe(0);

    typed(`clear; gw payout 12.5 USDT ${TRON_ADDRESS} --network tron; echo "EXIT=$?"`);
    enter();
    await waitFor(/Send this payout\?/);
    typed('y');
    enter();
    const sent = await waitFor(/EXIT=\d+/);
    expect(sent).toMatch(/EXIT=0/);
    expect(sent).toContain('Payout 258298451 sent: processing');
    expect(posts()).toBe(1);
    expect(sent).not.toContain(TEST_PAYOUT_KEY);
  });

  it('at 80x24: the full address on one screen line, the fee note under its column; Enter and Ctrl-C send nothing, each with its line and code', async () => {
    const before = posts();
    const narrow = (keys: string[]): void => void tmux('send-keys', '-t', NARROW, ...keys);
    narrow(['-l', `clear; gw payout 12.5 USDT ${TRON_ADDRESS} --network tron; echo "EXIT=$?"`]);
    narrow(['Enter']);
    const asked = await waitFor(/Send this payout\?/, 15_000, NARROW, false);
    expect(asked.split('\n')).toContain(`  to           ${TRON_ADDRESS}`);
    expect(asked).toMatch(/^ {2}fee {10}1 USDT \(the gateway's published withdraw fee;[^\n]*\n {15}\S/m);
    narrow(['Enter']);
    const empty = await waitFor(/EXIT=\d+/, 15_000, NARROW);
    expect(empty).toMatch(/EXIT=1\b/);
    expect(empty).toContain('not confirmed: nothing was sent');

    // A clean screen first, so nothing of the first run is read as the second's.
    narrow(['-l', 'clear']);
    narrow(['Enter']);
    await waitFor(/^(?![\s\S]*EXIT=)/, 15_000, NARROW);
    tmux('clear-history', '-t', NARROW);
    narrow(['-l', `gw payout 12.5 USDT ${TRON_ADDRESS} --network tron; echo "EXIT=$?"`]);
    narrow(['Enter']);
    await waitFor(/Send this payout\?/, 15_000, NARROW);
    narrow(['C-c']);
    const interrupted = await waitFor(/EXIT=\d+/, 15_000, NARROW);
    expect(interrupted).toMatch(/EXIT=130\b/);
    expect(interrupted).toContain('interrupted at the confirmation: the payout was not sent');
    expect(posts()).toBe(before);
  });

  it('Ctrl-D at the question ends it as an interruption: nothing sent, exit 130, never a bug report', async () => {
    const before = posts();
    typed(`clear; gw payout 12.5 USDT ${TRON_ADDRESS} --network tron; echo "EXIT=$?"`);
    enter();
    await waitFor(/Send this payout\?/);
    tmux('send-keys', '-t', SESSION, 'C-d');
    const ended = await waitFor(/EXIT=\d+/);
    expect(ended).toMatch(/EXIT=130\b/);
    expect(ended).toContain('interrupted at the confirmation: the payout was not sent');
    expect(ended).not.toContain('bug');
    expect(posts()).toBe(before);
  });
});
