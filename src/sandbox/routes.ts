// The sandbox's HTTP surface as tables: each module lists its routes (method, path pattern, which
// envelope it answers in, and the operation), and server.ts matches requests against them. A new
// endpoint is a row in one of these tables, not a change to the server.
import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayReply, RequestFields, SandboxGateway } from './gateway.js';

/** Which envelope the route answers in, also for 404/405 and failures under its prefix. */
export type RouteStyle = 'legacy' | 'versioned' | 'control';

export interface SandboxRequest {
  method: string;
  /** Path without query or trailing slashes. */
  path: string;
  /** Values of the pattern's `:name` segments, percent-decoded. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The decoded body (JSON or form encoding); empty for GET. */
  fields: RequestFields;
}

export interface Route {
  method: 'GET' | 'POST';
  /** e.g. `/merchants/inquiry` or `/v1/payment/:track_id`. */
  pattern: string;
  style: RouteStyle;
  handle(gateway: SandboxGateway, request: SandboxRequest): GatewayReply | Promise<GatewayReply>;
}

/** The params of `path` if it matches `pattern`, else undefined. */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** The header value as one string (the first when repeated). */
export function header(request: SandboxRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
