// The sandbox journal (src/sandbox/journal.ts): many separate processes append at once and none
// loses another's entry, across rotations; older segments go only past the bound, and say so; a
// journal gw cannot use is an error (exit 78, one line), from `gw payments --sandbox` too.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { SandboxJournal } from '../../src/sandbox/journal.js';
import { encodeTrackId } from '../../src/sandbox/track-id.js';
import { runGw } from '../support/cli.js';

/** A valid sandbox track id per number (they differ in their nonce and creation time). */
const idOf = (n: number): string =>
  encodeTrackId({
    createdAt: 1_750_000_000 + n,
    lifeTime: 60,
    offering: 2,
    outcome: 'paid',
    settleSeconds: 10,
    currency: 'USDT',
    amount: '25',
    nonce: n % 65536,
  }) as string;

const freshDir = (): string => mkdtempSync(path.join(tmpdir(), 'gw-journal-'));

describe('parallel writers (separate processes)', () => {
  let bundle: string;
  beforeAll(async () => {
    // The journal module as a separate process would load it: bundled once, run by node.
    bundle = path.join(freshDir(), 'journal.mjs');
    await build({ entryPoints: [path.resolve('src/sandbox/journal.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'silent' });
  });

  it('8 processes × 300 appends at once, rotating every 16 KiB: all 2,400 entries are there, each once', async () => {
    const dir = freshDir();
    const file = path.join(dir, 'state', 'sandbox-payments.jsonl');
    const WRITERS = 8;
    const EACH = 300;
    const script = `
      const { SandboxJournal } = await import(${JSON.stringify(bundle)});
      const [file, writer, each] = process.argv.slice(1);
      const notices = [];
      const journal = new SandboxJournal(file, { rotateBytes: 16 * 1024, onNotice: (l) => notices.push(l) });
      for (let i = 0; i < Number(each); i++) {
        if (!journal.append({ trackId: 'sbx' + writer + 'x' + i, orderId: 'w' + writer + '-' + i })) process.exit(3);
      }
      if (notices.length > 0) { console.error(notices.join('\\n')); process.exit(4); }
    `;
    const codes = await Promise.all(
      Array.from(
        { length: WRITERS },
        (_, w) =>
          new Promise<number | null>((resolve, reject) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', script, file, String(w), String(EACH)], {
              stdio: ['ignore', 'ignore', 'inherit'],
            });
            child.on('error', reject);
            child.on('exit', resolve);
          }),
      ),
    );
    expect(codes).toEqual(Array(WRITERS).fill(0));
    const journal = new SandboxJournal(file, { rotateBytes: 16 * 1024 });
    const entries = journal.read();
    expect(entries).toHaveLength(WRITERS * EACH);
    expect(new Set(entries.map((e) => e.trackId)).size).toBe(WRITERS * EACH);
    expect(journal.count()).toBe(WRITERS * EACH);
    // Each writer's own entries are in its order.
    for (let w = 0; w < WRITERS; w++) {
      const mine = entries.filter((e) => e.orderId.startsWith(`w${w}-`)).map((e) => Number(e.orderId.split('-')[1]));
      expect(mine).toEqual(Array.from({ length: EACH }, (_, i) => i));
    }
    // It did rotate: segments beside the file.
    expect(readdirSync(path.dirname(file)).length).toBeGreaterThan(2);
  }, 60_000);
});

describe('bounds', () => {
  it('keeps at least the newest keepEntries payments, removes older segments only past that, and says so', () => {
    const file = path.join(freshDir(), 'j.jsonl');
    const notices: string[] = [];
    const journal = new SandboxJournal(file, { rotateBytes: 4 * 1024, keepEntries: 500, onNotice: (l) => notices.push(l) });
    for (let i = 0; i < 2000; i++) journal.append({ trackId: idOf(i), orderId: `o-${i}` });
    const kept = journal.read();
    expect(kept.length).toBeGreaterThanOrEqual(500);
    expect(kept.length).toBeLessThan(2000);
    expect(kept.at(-1)).toEqual({ trackId: idOf(1999), orderId: 'o-1999' });
    // The newest 500 are all there, in order.
    expect(kept.slice(-500).map((e) => e.orderId)).toEqual(Array.from({ length: 500 }, (_, i) => `o-${1500 + i}`));
    expect(notices.length).toBeGreaterThan(0);
    expect(notices[0]).toMatch(/^the sandbox journal keeps the newest 500 or more payments: \d+ older ones? removed \(/);
    const removed = notices.reduce((sum, n) => sum + Number(/: (\d+) older/.exec(n)?.[1]), 0);
    expect(removed + kept.length).toBe(2000);
  });

  it('the default keeps the newest 10,000', async () => {
    const { KEEP_ENTRIES } = await import('../../src/sandbox/journal.js');
    expect(KEEP_ENTRIES).toBe(10_000);
  });

  it('an entry that cannot be written is reported, not silently lost', () => {
    const dir = freshDir();
    const file = path.join(dir, 'j.jsonl');
    mkdirSync(file); // a folder where the file should be
    const notices: string[] = [];
    expect(new SandboxJournal(file, { onNotice: (l) => notices.push(l) }).append({ trackId: idOf(1), orderId: 'x' })).toBe(false);
    expect(notices).toEqual([expect.stringMatching(/could not record payment sbx\w+ \(EISDIR\): a later --sandbox run will not find it by order id$/)]);
  });

  it('reads a page from the end: the newest entries first, lazily, whatever the size', () => {
    const file = path.join(freshDir(), 'j.jsonl');
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `${JSON.stringify({ trackId: idOf(i), orderId: `o-${i}` })}\n`).join(''));
    const journal = new SandboxJournal(file);
    const first: string[] = [];
    for (const e of journal.newest()) {
      first.push(e.orderId);
      if (first.length === 3) break;
    }
    expect(first).toEqual(['o-2999', 'o-2998', 'o-2997']);
    expect([...journal.newest()].map((e) => e.orderId)).toEqual(Array.from({ length: 3000 }, (_, i) => `o-${2999 - i}`));
    expect(journal.find(idOf(17))).toEqual({ trackId: idOf(17), orderId: 'o-17' });
    expect(journal.withOrderId('o-2500')).toEqual([{ trackId: idOf(2500), orderId: 'o-2500' }]);
  });
});

describe('a journal gw cannot use: gw payments --sandbox', () => {
  const journalIn = (home: string): string => path.join(home, 'state', 'gateway', 'sandbox-payments.jsonl');

  it('too large: exit 78 and one line naming it (not "no payments")', async () => {
    const home = freshDir();
    const file = journalIn(home);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
    truncateSync(file, 17 * 1024 * 1024); // sparse: nothing is written
    const r = await runGw(['payments', '--sandbox'], { env: { HOME: home, XDG_STATE_HOME: path.join(home, 'state') }, home });
    expect(r.exitCode).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`gw: the sandbox journal ${file} cannot be used: it is 17.0 MiB, more than the 16 MiB gw ever writes\n`);
    expect(r.stderr).toContain('hint: move it away (gw starts a new one) or delete it');
  });

  it('an entry gw cannot write: the payment is made, and a warning says the journal missed it', async () => {
    const home = freshDir();
    mkdirSync(journalIn(home), { recursive: true }); // a folder where the file should be
    const r = await runGw(['pay', '25', 'USDT', '--sandbox', '--no-qr', '--order-id', 'o-2'], {
      env: { HOME: home, XDG_STATE_HOME: path.join(home, 'state') },
      home,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /gw: warning: the sandbox journal \S+ could not record payment [1-9]\d{8} \(EISDIR\): a later --sandbox run will not find it by order id\n/,
    );
  });

  it('a line that is not an entry: exit 78 when the history reads it', async () => {
    const home = freshDir();
    const env = { HOME: home, XDG_STATE_HOME: path.join(home, 'state') };
    const pay = await runGw(['pay', '25', 'USDT', '--sandbox', '--json', '--no-qr', '--order-id', 'o-1'], { env, home });
    expect(pay.exitCode).toBe(0);
    const trackId = (JSON.parse(pay.stdout) as { trackId: string }).trackId;
    const listed = await runGw(['payments', '--sandbox', '--json'], { env, home });
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ total: 1, payments: [{ trackId }] });

    // The line gw wrote (the payment's record), then one that is not an entry.
    writeFileSync(journalIn(home), `${readFileSync(journalIn(home), 'utf8')}<<garbage>>\n`);
    const r = await runGw(['payments', '--sandbox'], { env, home });
    expect(r.exitCode).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`gw: the sandbox journal ${journalIn(home)} cannot be used: a line is not a journal entry: "<<garbage>>"\n`);
    // A status reads only the lines that name its payment: it still finds its order id.
    const status = await runGw(['status', trackId, '--sandbox', '--json'], { env, home });
    expect(JSON.parse(status.stdout)).toMatchObject({ trackId, orderId: 'o-1' });
  });
});
