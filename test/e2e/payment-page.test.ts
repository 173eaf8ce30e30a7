// A sandbox payment link opened in a real browser (Debian's Chromium, driven by puppeteer-core,
// which downloads no browser of its own), as a newcomer tries it: the built `gw invoice --sandbox
// --wait` creates it and keeps the embedded sandbox (and its page) up; the page shows the amount
// and the coins, a coin is chosen, the address, amount and QR appear, "Pay in full" is pressed, and
// the wait ends PAID, exit 0. A missing
// browser fails this test: it never skips. Every request the page makes is checked: anything not
// to 127.0.0.1 is blocked, and the test asserts there was none.
import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startGw } from '../support/gw.js';
import { decodeSvg } from '../support/qr-decode.js';

const CHROMIUM = '/usr/bin/chromium';
type Child = ReturnType<typeof startGw>;

function lineMatching(child: Child, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer | string): void => {
      text += String(chunk);
      const line = text.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        child.stdout?.off('data', onData);
        resolve(line);
      }
    };
    child.stdout?.on('data', onData);
    void child.then(
      () => reject(new Error(`exited before printing ${pattern}: ${text}`)),
      () => reject(new Error(`failed before printing ${pattern}: ${text}`)),
    );
  });
}

describe('a sandbox payment link in a real browser', () => {
  let browser: Browser | undefined;
  let waiting: Child | undefined;

  afterAll(async () => {
    await browser?.close();
    waiting?.kill('SIGINT');
    await waiting?.catch(() => undefined);
  });

  it('shows the amount and coins; chosen, the address, amount and QR; paid in full, gw invoice --sandbox --wait ends PAID', async () => {
    // In the test, not a hook: a browser that is missing fails it (a failed hook would only skip it).
    // Launched first, so the page opens right after the invoice is made (before the link would settle on its own).
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'],
      timeout: 30_000,
    });
    // A newcomer's flow: the embedded sandbox, kept up (with its page) by --wait.
    waiting = startGw(['invoice', '25', 'USD', '--sandbox', '--wait', '--no-qr', '--order-id', 'e2e-page'], { timeoutMs: 90_000 });
    const paymentUrl = /^Payment link\s+(\S+)$/.exec(await lineMatching(waiting, /^Payment link\s+http/))?.[1] ?? '';
    expect(new URL(paymentUrl).hostname).toBe('127.0.0.1');

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const blocked: string[] = [];
    const seen: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request: HTTPRequest) => {
      const url = new URL(request.url());
      seen.push(`${request.method()} ${url.pathname}`);
      if (url.protocol === 'data:' || url.hostname === '127.0.0.1') void request.continue();
      else {
        blocked.push(request.url());
        void request.abort();
      }
    });

    const opened = await page.goto(paymentUrl, { waitUntil: 'load' });
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
    expect(await page.$eval('#amount', (e) => e.textContent)).toBe('25');
    expect(await page.$eval('#currency', (e) => e.textContent)).toBe('USD');
    const coins = await page.$$eval('label', (labels) => labels.map((l) => l.textContent?.trim()));
    expect(coins).toContain('USDT (Tron Network)');
    expect(coins).toContain('BTC (Bitcoin Network)');

    // Choose USDT on Tron.
    await page.$$eval('label', (labels) => {
      const label = labels.find((l) => l.textContent?.trim() === 'USDT (Tron Network)');
      label?.querySelector('input')?.click();
    });
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#choose-coin')]);
    expect(await page.$eval('#pay-currency', (e) => e.textContent)).toBe('USDT');
    expect(await page.$eval('#pay-amount', (e) => e.textContent)).toBe('25');
    const address = (await page.$eval('#address', (e) => e.textContent)) ?? '';
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const qr = await page.$('#qr svg');
    const box = await qr?.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    // The QR holds what the payer's wallet needs: on Tron, the address.
    expect(decodeSvg(await page.$eval('#qr', (e) => e.innerHTML))).toBe(address);

    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#pay-full')]);
    expect(await page.$eval('#status', (e) => e.getAttribute('data-status'))).toMatch(/^(waiting|confirming|paid)$/);
    const ended = await waiting;
    expect(ended.exitCode, String(ended.stderr)).toBe(0);
    expect(String(ended.stdout)).toMatch(/PAID/);
    expect(String(ended.stderr)).toMatch(/Sandbox: open the link within 10 s/);

    // Three documents (open, choose, pay: each POST redirects to the page); nothing else was asked for, nothing left 127.0.0.1.
    expect(blocked).toEqual([]);
    expect(seen.filter((s) => !s.startsWith('GET /pay/') && !s.startsWith('POST /pay/'))).toEqual([]);
    await page.close();
  }, 120_000);
});
