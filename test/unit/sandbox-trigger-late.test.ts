// gw sandbox trigger <id> late: the sandbox's `-late` ending on demand. The gateway has no word for
// it: the payment is expired WITH the full amount received after the expiry, and the notification a
// receiver gets says Expired and carries that transaction (gw listen reads it as late).
import { describe, expect, it } from 'vitest';
import { notificationArrival } from '../../src/domain/notification-arrival.js';
import { parseTriggerState } from '../../src/sandbox/lifecycle.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { ManualClock } from '../../src/util/clock.js';
import { send, startReceiver } from '../support/notifications.js';

const KEY = 'sandbox-merchant-key';

describe('parseTriggerState', () => {
  it.each([
    ['late', 'late'],
    ['LATE', 'late'],
    ['refunding', 'refunding'],
    ['paying', 'confirming'],
  ])('%j → %s', (text, state) => {
    expect(parseTriggerState(text)).toBe(state);
  });
  it.each(['manual_accept', 'ｌａｔｅ', 'sideways'])('%j is no state to move to', (text) => {
    expect(parseTriggerState(text)).toBeUndefined();
  });
});

describe('the control route: state late', () => {
  it('answers expired and notifies Expired with the full amount received', async () => {
    const app = await startReceiver();
    const sbx = await startSandbox({ notifications: { log: () => undefined, clock: new ManualClock() } });
    try {
      const created = await send(
        `${sbx.url}/merchants/request/whitelabel`,
        JSON.stringify({ merchant: KEY, amount: 10, payCurrency: 'USDT', callbackUrl: app.url }),
        { 'content-type': 'application/json' },
      );
      const trackId = (JSON.parse(created.body) as { trackId: string }).trackId;
      const late = await send(`${sbx.url}/_sandbox/payments/${trackId}/state`, JSON.stringify({ state: 'late' }), {
        'content-type': 'application/json',
        merchant_api_key: KEY,
      });
      expect(late.status).toBe(200);
      expect(JSON.parse(late.body)).toMatchObject({ ok: true, trackId, status: 'expired', notification: { result: 'acknowledged' } });
      await expect.poll(() => app.requests.length).toBe(2);
      const body = app.requests[1]!.body;
      expect(JSON.parse(body.toString())).toMatchObject({ status: 'Expired', txID: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
      expect(notificationArrival(body)?.state).toBe('late');
    } finally {
      await sbx.close();
      await app.close();
    }
  });
});
