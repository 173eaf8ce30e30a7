// The sandbox's control surface (not part of the gateway's interface): routes under /_sandbox that
// let a developer drive a running sandbox — move a payment to a state (its notification goes out)
// and send its latest notification again. They answer plain JSON, `{"ok": true, …}` or
// `{"ok": false, "error": {"message"}}` with a matching HTTP status, and require the sandbox's
// merchant key in the header `merchant_api_key` (or the body field `merchant`).
import type { GatewayReply } from './envelopes.js';
import type { SandboxGateway } from './gateway.js';
import { parseTriggerState, TRIGGER_STATES } from './lifecycle.js';
import { DEPOSIT_KINDS } from './deposit-kinds.js';
import { notificationsOf, type DeliveryOutcome, type SandboxNotifications } from './notify.js';
import { header, type Route, type SandboxRequest } from './routes.js';

export const CONTROL_PREFIX = '/_sandbox';

export function controlError(status: number, message: string): GatewayReply {
  return { status, body: { ok: false, error: { message } } };
}

function controlOk(payload: object): GatewayReply {
  return { status: 200, body: { ok: true, ...payload } };
}

/** The notifications wiring, when the request carries the sandbox's merchant key. */
function authorised(gateway: SandboxGateway, request: SandboxRequest): SandboxNotifications | GatewayReply {
  const notifications = notificationsOf(gateway);
  if (notifications === undefined) return controlError(503, 'this sandbox has no control over payments');
  const fromHeader = header(request, 'merchant_api_key');
  const fromBody = Object.hasOwn(request.fields, 'merchant') ? request.fields.merchant : undefined;
  const key = fromHeader ?? (typeof fromBody === 'string' ? fromBody : undefined);
  if (key === undefined || key === '') return controlError(401, 'the sandbox merchant key is missing (header merchant_api_key)');
  if (key !== notifications.merchantKey) return controlError(401, 'invalid merchant key');
  return notifications;
}

/** A delivery's first attempt, for the answer. */
function outcomeJson(outcome: DeliveryOutcome | undefined): object | null {
  if (outcome === undefined) return null;
  return {
    url: outcome.url,
    style: outcome.style,
    type: outcome.type,
    status: outcome.status,
    attempt: outcome.attempt,
    attempts: outcome.attempts,
    result: outcome.result,
    httpStatus: outcome.httpStatus ?? null,
    answer: outcome.answer ?? null,
    error: outcome.error ?? null,
    ms: outcome.ms ?? null,
    nextRetryMs: outcome.nextRetryMs ?? null,
  };
}

async function setState(gateway: SandboxGateway, request: SandboxRequest): Promise<GatewayReply> {
  const access = authorised(gateway, request);
  if (!('control' in access)) return access;
  const trackId = request.params.trackId ?? '';
  const wanted = request.fields.state ?? request.fields.status;
  const state = typeof wanted === 'string' ? parseTriggerState(wanted) : undefined;
  if (state === undefined) return controlError(400, `state must be one of ${TRIGGER_STATES.join(', ')}`);
  const before = access.delivery.latest(trackId);
  const snapshot = access.control.setState(trackId, state);
  if (snapshot === undefined) return controlError(404, `no payment with track id ${trackId}`);
  // The change's notification, if the payment has a callbackUrl: its first attempt.
  const latest = access.delivery.latest(trackId);
  const outcome = latest !== undefined && latest !== before ? await latest : undefined;
  return controlOk({ trackId, status: snapshot.gatewayStatus, callbackUrl: snapshot.callbackUrl, notification: outcomeJson(outcome) });
}

async function resend(gateway: SandboxGateway, request: SandboxRequest): Promise<GatewayReply> {
  const access = authorised(gateway, request);
  if (!('control' in access)) return access;
  const trackId = request.params.trackId ?? '';
  if (gateway.payment(trackId) === undefined) return controlError(404, `no payment with track id ${trackId}`);
  const sending = access.delivery.resend(trackId);
  if (sending === undefined) return controlError(409, `payment ${trackId} has had no notification to send again (it has no callbackUrl?)`);
  return controlOk({ trackId, notification: outcomeJson(await sending) });
}

/** A payment to a fixed address (static-addresses.ts): `{kind: full|partial|late, amount?, currency?, coin?}`. */
async function deposit(gateway: SandboxGateway, request: SandboxRequest): Promise<GatewayReply> {
  const access = authorised(gateway, request);
  if (!('control' in access)) return access;
  const address = request.params.address ?? '';
  const text = (name: string): string | undefined => {
    const v = request.fields[name];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : v !== undefined && v !== null && typeof v !== 'object' ? String(v) : undefined;
  };
  const kind = DEPOSIT_KINDS.find((k) => k === (text('kind') ?? 'full'));
  if (kind === undefined) return controlError(400, `kind must be one of ${DEPOSIT_KINDS.join(', ')}`);
  const amount = text('amount');
  const currency = text('currency');
  const coin = text('coin');
  const made = gateway.staticAddresses.deposit(address, {
    kind,
    ...(amount !== undefined && { amount }),
    ...(currency !== undefined && { currency: currency.toUpperCase() }),
    ...(coin !== undefined && { coin: coin.toUpperCase() }),
  });
  if (!made.ok) return controlError(made.status, made.message);
  const trackId = made.payment.trackId;
  const snapshot = gateway.snapshotOf(trackId);
  // Its first notification, if the address has a callbackUrl: its first attempt.
  const latest = access.delivery.latest(trackId);
  const outcome = latest === undefined ? undefined : await latest;
  return controlOk({ trackId, address, status: snapshot?.gatewayStatus ?? null, callbackUrl: made.payment.callbackUrl, notification: outcomeJson(outcome) });
}

export const CONTROL_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: `${CONTROL_PREFIX}/payments/:trackId/state`, style: 'control', handle: setState },
  { method: 'POST', pattern: `${CONTROL_PREFIX}/payments/:trackId/resend`, style: 'control', handle: resend },
  { method: 'POST', pattern: `${CONTROL_PREFIX}/static-addresses/:address/payments`, style: 'control', handle: deposit },
];
