// The gateway's operations the sandbox does not serve, in one table: the routes that answer them
// (HTTP 501 from every method of each path, in the path's envelope: envelopes.ts notServedReply)
// and the "not served" rows of docs/sandbox.md both come from it (test/unit/sandbox-not-served.test.ts
// holds the docs to it). Sources: docs/gateway.md §8, §10–§14 (v1) and the official Node library's
// legacy paths (NODE methodInfos.json). An operation the sandbox starts to serve leaves this table
// for a row of SANDBOX_BEHAVIOURS (gateway.ts).
import type { Api } from '../operations/codec.js';

export interface UnservedEndpoint {
  api: Api;
  method: 'GET' | 'POST';
  /** `:name` for a segment (`/v1/payout/:track_id`). */
  path: string;
}

export interface UnservedOperation {
  /** How messages name it: "<Name> is not served by the gw sandbox". */
  name: string;
  /** Where docs/gateway.md describes it. */
  section: string;
  endpoints: readonly UnservedEndpoint[];
}

export const NOT_SERVED: readonly UnservedOperation[] = [
  // The versioned invoice is served (invoices.ts); the legacy page's call is not.
  { name: 'invoice creation', section: '§10', endpoints: [{ api: 'legacy', method: 'POST', path: '/merchants/request' }] },
  // The versioned static-address endpoints are served (gateway.ts); the legacy ones are not.
  { name: 'static address creation', section: '§11', endpoints: [{ api: 'legacy', method: 'POST', path: '/merchants/request/staticaddress' }] },
  { name: 'static address revocation', section: '§11', endpoints: [{ api: 'legacy', method: 'POST', path: '/merchants/revoke/staticaddress' }] },
  {
    // The versioned payout endpoints are served (gateway.ts); the legacy ones are not.
    name: 'payout creation',
    section: '§13',
    endpoints: [{ api: 'legacy', method: 'POST', path: '/api/send' }],
  },
  {
    name: 'the payout history',
    section: '§13',
    endpoints: [{ api: 'legacy', method: 'POST', path: '/api/list' }],
  },
  {
    name: 'payout information',
    section: '§13',
    endpoints: [{ api: 'legacy', method: 'POST', path: '/api/inquiry' }],
  },
  { name: 'swap creation', section: '§14', endpoints: [{ api: 'v1', method: 'POST', path: '/v1/general/swap' }] },
  { name: 'the swap history', section: '§14', endpoints: [{ api: 'v1', method: 'GET', path: '/v1/general/swap' }] },
  { name: 'swap pairs', section: '§14', endpoints: [{ api: 'v1', method: 'GET', path: '/v1/general/swap/pairs' }] },
  { name: 'the swap calculation', section: '§14', endpoints: [{ api: 'v1', method: 'POST', path: '/v1/general/swap/calculate' }] },
];

/** The operation a request to `path` with `method` asks for: the one with that method there, else the first at that path. */
export function unservedAt(path: string, method: string): { operation: UnservedOperation; endpoint: UnservedEndpoint } | undefined {
  const at = NOT_SERVED.flatMap((operation) => operation.endpoints.filter((e) => e.path === path).map((endpoint) => ({ operation, endpoint })));
  return at.find((a) => a.endpoint.method === method) ?? at[0];
}

/** Every path of the table, each once, in table order. */
export function unservedPaths(): string[] {
  return [...new Set(NOT_SERVED.flatMap((o) => o.endpoints.map((e) => e.path)))];
}
