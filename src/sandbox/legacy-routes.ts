// The interface document's unversioned endpoints. Keys travel in the body (form or JSON: the real
// service takes either, see docs/gateway.md §1).
import type { Route } from './routes.js';

export const LEGACY_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: '/merchants/allowedCoins', style: 'legacy', handle: (g, r) => g.allowedCoins(r.fields) },
  { method: 'POST', pattern: '/merchants/request/whitelabel', style: 'legacy', handle: (g, r) => g.createWhiteLabel(r.fields) },
  { method: 'POST', pattern: '/api/balance', style: 'legacy', handle: (g, r) => g.balance(r.fields) },
  { method: 'POST', pattern: '/exchange/rate', style: 'legacy', handle: (g, r) => g.exchangeRate(r.fields) },
  { method: 'POST', pattern: '/merchants/inquiry', style: 'legacy', handle: (g, r) => g.inquiry(r.fields) },
  { method: 'POST', pattern: '/merchants/list', style: 'legacy', handle: (g, r) => g.list(r.fields) },
  // The image a white-label answer's QRCode field links to (no key: a link to hand to the payer).
  { method: 'GET', pattern: '/qr/:file', style: 'legacy', handle: (g, r) => g.qrImage(r.params.file ?? '') },
];
