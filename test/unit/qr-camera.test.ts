// How the counter screen's QR survives a phone's photo (test/support/camera.ts): the ways of drawing
// a code the screen may take (src/qr SCREEN_QR_LADDER) photographed on a dark and a light theme,
// with the text beside the code, decoded by ZXing's reader. The lowest rung (level L, a two-module
// quiet zone: what the 27-row codes take at 80×24) must read in every photo without reflections;
// no quiet zone at all must not read on a dark theme (why the ladder keeps one).
// GW_QR_MEASURE=<file> writes the table docs/decisions.md quotes to that file (GW_QR_PHOTOS photos
// per offering and way of drawing, default 8).
import { writeFileSync } from 'node:fs';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { buildPaymentUri } from '../../src/payment-uri/index.js';
import { type QrLevel, qrChoices, qrSize, renderTerminalQr } from '../../src/qr/index.js';
import { deriveSandboxAddress } from '../../src/sandbox/addresses.js';
import { SANDBOX_OFFERINGS } from '../../src/sandbox/offerings.js';
import { counterScreen, type ScreenQrChoices } from '../../src/views/counter-screen.js';
import { type Photo, photograph } from '../support/camera.js';
import { paymentOf } from '../support/fake-gateway.js';
import { decodeRaster, screenRaster, type Theme } from '../support/qr-decode.js';
import { FULL_PRECISION_AMOUNTS as AMOUNTS } from '../support/sandbox.js';
import { VirtualTerminal } from '../support/terminal.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const TRACK_ID = 'sbxtyzgsqjnn9ybzle8dw5ne3d';
const HARD = SANDBOX_OFFERINGS.filter((o) => ['USDC', 'XMR'].includes(o.payCurrency) || (o.payCurrency === 'USDT' && o.networkId !== 'tron'));
const THEMES: readonly Theme[] = ['dark', 'light'];
/** A hand-held photo: turned a little, slightly out of focus, sensor noise. */
const STEADY: Omit<Photo, 'seed'> = { tilt: 3, blur: 1, noise: 8, glare: 0 };

type Offering = (typeof SANDBOX_OFFERINGS)[number];

/** The counter screen for `offering`, its QR drawn the given way (or the first way that fits), as the terminal shows it. */
function screen(offering: Offering, width: number, height: number, rung?: { level: QrLevel; quietZone: number }) {
  const payAmount = AMOUNTS[offering.payCurrency] ?? '1';
  const address = deriveSandboxAddress(offering.networkId, TRACK_ID);
  const payment = paymentOf({
    trackId: TRACK_ID,
    payAmount,
    payCurrency: offering.payCurrency,
    network: offering.network,
    address,
    expiredAt: NOW / 1000 + 3540,
  });
  const uri = buildPaymentUri({ network: offering.network, payCurrency: offering.payCurrency, address, payAmount }).uri;
  const options = { color: true, ...rung };
  const qr: ScreenQrChoices =
    rung === undefined ? { choices: qrChoices(uri, options) } : { choices: [{ ...qrSize(uri, options), draw: () => renderTerminalQr(uri, options) }] };
  const lines = counterScreen({
    payment,
    uri: buildPaymentUri({ network: offering.network, payCurrency: offering.payCurrency, address, payAmount }),
    qr,
    width,
    height,
    now: NOW,
    chalk: new Chalk({ level: 1 }),
    sandbox: true,
  });
  // Where the code is when drawn the given way: from the top left corner (the text beside it).
  const size = { ...qrSize(uri, options), quietZone: rung?.quietZone ?? 4 };
  return { ansi: new VirtualTerminal(width, height).write(`${lines.join('\n')}\n$ `).ansi(), uri, width, size };
}

/** How many of `seeds` photos of the screen read back as the URI. */
function reads(
  shot: { ansi: string; uri: string; width: number; size: { columns: number; quietZone: number } },
  theme: Theme,
  photo: Omit<Photo, 'seed'>,
  seeds: readonly number[],
): number {
  const px = 4;
  const raster = screenRaster(shot.ansi, theme, shot.width, px);
  // The symbol (inside its quiet zone), from the top left corner: screenRaster's margin is two cells
  // across and two half rows down; a module is a cell wide and a half row (px) tall.
  const side = (shot.size.columns - 2 * shot.size.quietZone) * px;
  const code = { x: (2 + shot.size.quietZone) * px, y: (2 + shot.size.quietZone) * px, width: side, height: side };
  return seeds.filter((seed) => decodeRaster(photograph(raster, { ...photo, code, seed })) === shot.uri).length;
}

describe('the counter screen photographed', () => {
  it.each(HARD.flatMap((o) => THEMES.map((theme) => [`${o.payCurrency} on ${o.network}`, theme, o] as const)))(
    'at 80×24, %s on a %s theme (level L, quiet zone 2): every steady photo reads',
    (_name, theme, offering) => {
      expect(reads(screen(offering, 80, 24), theme, STEADY, [1, 2, 3])).toBe(3);
    },
  );

  it('without a quiet zone a code does not read on a dark theme; one module of it does', () => {
    const usdc = HARD.find((o) => o.payCurrency === 'USDC')!;
    expect(reads(screen(usdc, 120, 60, { level: 'L', quietZone: 0 }), 'dark', STEADY, [1, 2, 3])).toBe(0);
    expect(reads(screen(usdc, 120, 60, { level: 'L', quietZone: 1 }), 'dark', STEADY, [1, 2, 3])).toBe(3);
  });
});

describe.runIf(process.env.GW_QR_MEASURE !== undefined)('measurement (GW_QR_MEASURE=<file>)', () => {
  it('each level and quiet zone, steady and with a reflection, on both themes', () => {
    const seeds = Array.from({ length: Number(process.env.GW_QR_PHOTOS ?? 8) }, (_, i) => i + 1);
    const rows: string[] = [];
    for (const glare of (process.env.GW_QR_GLARE ?? '0,0.2').split(',').map(Number)) {
      for (const level of ['L', 'M', 'Q', 'H'] as const) {
        for (const quietZone of [0, 1, 2, 4]) {
          const counts = THEMES.map((theme) => {
            let ok = 0;
            for (const offering of HARD) ok += reads(screen(offering, 160, 60, { level, quietZone }), theme, { ...STEADY, glare }, seeds);
            return `${theme} ${ok}/${HARD.length * seeds.length}`;
          });
          rows.push(`glare ${glare} level ${level} quiet ${quietZone}: ${counts.join(', ')}`);
        }
      }
    }
    writeFileSync(process.env.GW_QR_MEASURE ?? '', `${rows.join('\n')}\n`);
  }, 900_000);
});
