// The gateway's operations over the interface document's (legacy) endpoints: each operation's
// module (src/operations/*) says where its endpoint is and how its fields travel; perform()
// (../call.ts) sends it and decodes the answer. An operation the legacy API does not have goes to
// the versioned endpoint whatever `api` says (chooseEndpoint).
import type { ClientOptions } from '../call.js';
import type { HttpTransport, Keys } from '../gateway.js';
import { jsonNumber } from '../../util/json.js';
import { OperationsClient } from '../operations-client.js';

export { checkHeaderKey, missingKeyError, withKeyHint } from '../call.js';

/** A track id as the gateway's own client sends it: a JSON integer when it is all digits, else text. */
export function trackIdValue(trackId: string): unknown {
  return /^[1-9]\d{0,30}$/.test(trackId) ? jsonNumber(trackId) : trackId;
}

export type KeyKind = 'merchant' | 'payout';

/** The legacy endpoints (docs/gateway.md §1–§6); every one of gw's history filters is a documented field of POST /merchants/list. */
export class LegacyGateway extends OperationsClient {
  constructor(transport: HttpTransport, keys: Keys, options: ClientOptions = {}) {
    super({ ...options, transport, keys, api: 'legacy' });
  }
}
