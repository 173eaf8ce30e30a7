// The page a sandbox payment link (an invoice's payment_url, invoices.ts) opens in a browser: the
// amount; the coins the payer may choose; once one is chosen, the address, the amount in that coin
// and a QR code of its payment URI (inline SVG, src/qr/image.ts); and buttons that simulate the
// payer paying in full, in part, or after the expiry. Choosing and paying are form POSTs answered
// with a redirect to the page (no script at all); what they change is the sandbox payment itself,
// so `gw status` and `--wait` see it.
//
// The page loads nothing: no script, no image, no font, no style sheet from anywhere. Its Content
// Security Policy allows only its one inline style block (by hash) and forms posted to itself;
// every text in it is HTML-escaped.
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { GatewayReply } from './envelopes.js';
import type { SandboxGateway } from './gateway.js';
import { PAYER_ACTIONS, type LinkView, type PayerAction } from './invoices.js';
import type { SandboxStatus } from './lifecycle.js';
import type { Route, SandboxRequest } from './routes.js';
import { offerings, type SandboxPayment } from './store.js';

/** Where a payment link's page is: `/pay/<track id>` on the sandbox's own base URL. */
export const PAY_PREFIX = '/pay';

const CSS = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}
.banner{background:#fff3cd;border:1px solid #c9a227;padding:.5rem;border-radius:4px}
.amount{font-size:1.6rem}code{word-break:break-all;font-size:1rem}
fieldset{border:1px solid #999;border-radius:4px}label{display:block;padding:.2rem 0}
button{font-size:1rem;margin:.3rem .5rem .3rem 0;padding:.4rem .8rem}
.qr svg{width:16rem;height:auto;display:block}.status{font-weight:bold}`;

let csp: string | undefined;

/**
 * The page's Content Security Policy: nothing but its own inline style (by hash) and forms posted
 * to itself. Made when a page is first served, not as every `--sandbox` run loads this module, with
 * the sha256 the sandbox's addresses use (node:crypto is not loaded for it).
 */
export function pageCsp(): string {
  csp ??= `default-src 'none'; style-src 'sha256-${Buffer.from(sha256(utf8ToBytes(CSS))).toString('base64')}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
  return csp;
}

const STATUS_WORDS: Record<SandboxStatus, string> = {
  new: 'Choose a coin to pay with',
  waiting: 'Waiting for your payment',
  confirming: 'Payment seen: confirming',
  paid: 'Paid: thank you',
  underpaid: 'Underpaid: less than the amount arrived',
  expired: 'Expired',
  failed: 'Failed',
  refunding: 'Being refunded',
  refunded: 'Refunded',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string, refreshSeconds?: number): GatewayReply {
  const refresh = refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${refreshSeconds}">`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<title>${escapeHtml(title)}</title><style>${CSS}</style></head>
<body><main>
<p class="banner">gw sandbox: a test payment page. No real money moves.</p>
${body}
</main></body></html>
`;
  return {
    status,
    body: Buffer.from(html, 'utf8'),
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': pageCsp(),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}

function notFound(trackId: string): GatewayReply {
  return page(404, 'No such payment', `<h1>No such payment link</h1><p>This sandbox has no payment link ${escapeHtml(trackId)}.</p>`);
}

/** The chosen coin's address, amount and QR code (no QR where the payment URI cannot carry it). */
async function paymentDetails(payment: SandboxPayment): Promise<string> {
  const [{ buildPaymentUri }, { qrSvg }] = await Promise.all([import('../payment-uri/index.js'), import('../qr/image.js')]);
  const uri = buildPaymentUri({ network: payment.network, payCurrency: payment.payCurrency, address: payment.address, payAmount: payment.payAmount });
  // A code that holds only the address says so, as gw pay does: the payer's wallet then asks how much.
  const only = uri.qr && !uri.amountInUri ? '<p id="qr-address-only">The QR code holds only the address: enter the amount above in your wallet.</p>\n' : '';
  const qr = uri.qr ? `<div class="qr" id="qr" role="img" aria-label="QR code of the payment">${qrSvg(uri.uri)}</div>\n${only}` : '';
  return `<section id="payment">
<p>Send exactly <strong id="pay-amount">${escapeHtml(payment.payAmount)}</strong> <strong id="pay-currency">${escapeHtml(payment.payCurrency)}</strong>
on <span id="network">${escapeHtml(payment.network)}</span> to</p>
<p><code id="address">${escapeHtml(payment.address)}</code></p>
${qr}
</section>`;
}

function chooseForm(trackId: string): string {
  const choices = offerings()
    .map((o, i) => {
      const label = `${o.payCurrency} (${o.network})`;
      return `<label><input type="radio" name="coin" value="${i}"${i === 0 ? ' required' : ''}> ${escapeHtml(label)}</label>`;
    })
    .join('\n');
  return `<form method="post" action="${PAY_PREFIX}/${encodeURIComponent(trackId)}" id="choose">
<input type="hidden" name="action" value="choose">
<fieldset><legend>Coins you may pay with</legend>
${choices}
</fieldset>
<button type="submit" id="choose-coin">Pay with this coin</button>
</form>`;
}

function payForm(trackId: string): string {
  return `<form method="post" action="${PAY_PREFIX}/${encodeURIComponent(trackId)}" id="simulate">
<p>Simulate the payer's transfer:</p>
<button type="submit" name="action" value="full" id="pay-full">Pay in full</button>
<button type="submit" name="action" value="partial" id="pay-partial">Pay part of it</button>
<button type="submit" name="action" value="late" id="pay-late">Pay after the expiry</button>
</form>`;
}

async function render(view: LinkView): Promise<GatewayReply> {
  const { payment, status } = view;
  const link = payment.link as NonNullable<SandboxPayment['link']>;
  const parts = [
    `<h1>Pay <span class="amount"><span id="amount">${escapeHtml(payment.amount)}</span> <span id="currency">${escapeHtml(payment.currency)}</span></span></h1>`,
  ];
  if (payment.description !== '') parts.push(`<p id="description">${escapeHtml(payment.description)}</p>`);
  if (payment.orderId !== '') parts.push(`<p>Order <span id="order-id">${escapeHtml(payment.orderId)}</span></p>`);
  parts.push(`<p class="status" id="status" data-status="${escapeHtml(status)}">${escapeHtml(STATUS_WORDS[status])}</p>`);
  if (view.canChoose) parts.push(chooseForm(payment.trackId));
  else if (view.chosen) parts.push(await paymentDetails(payment));
  if (view.canPay) parts.push(payForm(payment.trackId));
  if (status === 'paid') {
    if (link.thanksMessage !== '') parts.push(`<p id="thanks">${escapeHtml(link.thanksMessage)}</p>`);
    if (/^https?:\/\//i.test(link.returnUrl)) parts.push(`<p><a id="return" href="${escapeHtml(link.returnUrl)}">Back to the shop</a></p>`);
  }
  parts.push(`<p><a href="${PAY_PREFIX}/${encodeURIComponent(payment.trackId)}">Refresh</a></p>`);
  // While a transfer is being confirmed, the page refreshes itself (no script needed).
  return page(200, `Pay ${payment.amount} ${payment.currency}`, parts.join('\n'), status === 'confirming' ? 2 : undefined);
}

async function show(gateway: SandboxGateway, request: SandboxRequest): Promise<GatewayReply> {
  const trackId = request.params.trackId ?? '';
  const payment = gateway.resolve(trackId);
  const view = payment === undefined ? undefined : gateway.links.attend(payment);
  return view === undefined ? notFound(trackId) : render(view);
}

async function act(gateway: SandboxGateway, request: SandboxRequest): Promise<GatewayReply> {
  const trackId = request.params.trackId ?? '';
  const payment = gateway.resolve(trackId);
  if (payment?.link === undefined) return notFound(trackId);
  const action = request.fields.action;
  let problem: string | undefined;
  if (action === 'choose') {
    const index = typeof request.fields.coin === 'string' && /^\d{1,3}$/.test(request.fields.coin) ? Number(request.fields.coin) : -1;
    const offering = offerings()[index];
    problem = offering === undefined ? 'choose one of the coins listed' : gateway.links.choose(payment, offering);
  } else if (typeof action === 'string' && Object.hasOwn(PAYER_ACTIONS, action)) {
    problem = gateway.links.pay(payment, action as PayerAction);
  } else problem = 'unknown action';
  if (problem !== undefined)
    return page(
      409,
      'Not possible',
      `<h1>Not possible</h1><p id="problem">${escapeHtml(problem)}</p><p><a href="${PAY_PREFIX}/${encodeURIComponent(trackId)}">Back to the payment</a></p>`,
    );
  // Post, then redirect: reloading the page never sends the action twice.
  return { status: 303, body: Buffer.alloc(0), headers: { location: `${PAY_PREFIX}/${encodeURIComponent(trackId)}`, 'cache-control': 'no-store' } };
}

/** The page's routes: GET shows it (and hands the link to the person there), POST acts. No key: the link is what the payer gets. */
export const PAYMENT_PAGE_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: `${PAY_PREFIX}/:trackId`, style: 'legacy', handle: show },
  { method: 'POST', pattern: `${PAY_PREFIX}/:trackId`, style: 'legacy', handle: act },
];
