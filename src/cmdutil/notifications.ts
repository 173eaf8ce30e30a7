// What gw listen and gw webhook share about the gateway's notifications: the API keys that verify or
// sign them (merchant: payments; payout: payouts) as configured, and the words for a body that
// repeats JSON keys. Small on purpose: both commands load it at start-up.
import type { KeySetting } from '../gateway/gateway.js';
import { Untrusted } from '../output/untrusted.js';
import type { Factory } from './factory.js';

export interface NotificationKeySettings {
  merchant?: KeySetting;
  payout?: KeySetting;
}

/** The merchant and payout keys from the configuration (flags, env, files), with where each came from. */
export async function configuredKeys(f: Factory): Promise<NotificationKeySettings> {
  const config = await f.config();
  const { describeSource } = await import('../config/resolve.js');
  const keys: NotificationKeySettings = {};
  if (config.merchantKey !== undefined) keys.merchant = { value: config.merchantKey.value, from: describeSource(config.merchantKey.source) };
  if (config.payoutKey !== undefined) keys.payout = { value: config.payoutKey.value, from: describeSource(config.payoutKey.source) };
  return keys;
}

/** What gw says of a body that repeats keys (readNotification reads the last value of each). */
export function repeatedKeysText(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map((k) => `"${Untrusted.of(k).line(40)}"`);
  const list = keys.length > 5 ? `${shown.join(', ')} and ${keys.length - 5} more` : shown.join(', ');
  return `the body repeats the key${keys.length === 1 ? '' : 's'} ${list}: gw read the last value${keys.length === 1 ? '' : ' of each'}, as JSON.parse does (the signature covers the bytes, whatever is repeated)`;
}
