// Tests for the pure failure classification of the transport: src/gateway/failures.ts (exit code,
// delivery, retry, one plain line), src/gateway/tls-errors.ts (what a certificate problem means
// and what to do), and the CONNECT helpers of src/gateway/tunnel.ts.
import { describe, expect, it } from 'vitest';
import { ExitCode, terminated } from '../../src/errors.js';
import { ConnectFailure, type ConnectStage } from '../../src/gateway/connect-stage.js';
import {
  abortedError,
  connectFailureError,
  proxyAuthError,
  requestFailureError,
  seconds,
  type FailureContext,
  type Progress,
} from '../../src/gateway/failures.js';
import { parseProxy } from '../../src/gateway/proxy.js';
import { certificateDate, certificateNames, describeTlsFailure, TLS_VERIFY_CODES } from '../../src/gateway/tls-errors.js';
import { connectRequest, parseConnectHead } from '../../src/gateway/tunnel.js';

const PASSWORD = 's3cr3t-proxy-pw';
const PROXY = parseProxy(`http://alice:${PASSWORD}@proxy.corp:3128`, 'HTTPS_PROXY');
const NO_AUTH_PROXY = parseProxy('http://proxy.corp:3128', 'https_proxy');
const DIRECT: FailureContext = { host: 'api.gateway.example:8443', hostname: 'api.gateway.example' };
const VIA: FailureContext = { ...DIRECT, proxy: PROXY };

/** One plain line: no line break, no stack, no password, no "Error:". */
function expectPlain(text: string | undefined): void {
  expect(text).toBeDefined();
  expect(text).not.toMatch(/[\r\n]/);
  expect(text).not.toMatch(/\bat \S+ \([^)]*:\d+:\d+\)|Error:/);
  expect(text).not.toContain(PASSWORD);
}

describe('connectFailureError: failures before anything was sent', () => {
  it.each<[string, ConnectStage, string, FailureContext, number, boolean, RegExp]>([
    [
      'refused',
      'tcp',
      'ECONNREFUSED',
      DIRECT,
      ExitCode.UNAVAILABLE,
      false,
      /^cannot connect to the gateway at api\.gateway\.example:8443: connection refused$/,
    ],
    ['DNS', 'tcp', 'ENOTFOUND', DIRECT, ExitCode.UNAVAILABLE, false, /^cannot find the gateway host api\.gateway\.example \(DNS lookup failed\)$/],
    ['no route', 'tcp', 'EHOSTUNREACH', DIRECT, ExitCode.UNAVAILABLE, false, /no route to the host \(EHOSTUNREACH\)/],
    [
      'proxy refused',
      'proxy',
      'ECONNREFUSED',
      VIA,
      ExitCode.UNAVAILABLE,
      false,
      /^cannot connect to the proxy at http:\/\/proxy\.corp:3128 \(from HTTPS_PROXY\): connection refused$/,
    ],
    ['proxy DNS', 'proxy', 'ENOTFOUND', VIA, ExitCode.UNAVAILABLE, false, /^cannot find the proxy host proxy\.corp \(from HTTPS_PROXY; DNS lookup failed\)$/],
    ['tunnel closed', 'tunnel', 'closed', VIA, ExitCode.UNAVAILABLE, false, /closed the connection instead of opening one to api\.gateway\.example:8443/],
    ['tunnel garbage', 'tunnel', 'bad-answer', VIA, ExitCode.UNAVAILABLE, true, /not HTTP/],
    ['TLS reset', 'tls', 'ECONNRESET', DIRECT, ExitCode.UNAVAILABLE, false, /broke during the TLS handshake \(ECONNRESET\)/],
    ['TLS to a plain HTTP port', 'tls', 'ERR_SSL_WRONG_VERSION_NUMBER', DIRECT, ExitCode.UNAVAILABLE, true, /does not answer in TLS on that port/],
    ['TLS self-signed', 'tls', 'DEPTH_ZERO_SELF_SIGNED_CERT', DIRECT, ExitCode.UNAVAILABLE, true, /self-signed/],
  ])('%s: not-sent, with its exit code and retry rule', (_name, stage, reason, ctx, exit, final, message) => {
    const error = connectFailureError(new ConnectFailure(stage, reason), ctx);
    expect(error.exitCode).toBe(exit);
    expect(error.delivery).toBe('not-sent');
    expect(error.final).toBe(final);
    expect(error.message).toMatch(message);
    expectPlain(error.message);
    expectPlain(error.hint);
  });

  it('proxy: 407 to CONNECT → exit 78, final, a hint about the credentials; the password never shown', () => {
    const withCreds = connectFailureError(new ConnectFailure('tunnel', 'status', { status: 407, statusText: 'Proxy Authentication Required' }), VIA);
    expect(withCreds.exitCode).toBe(ExitCode.CONFIG);
    expect(withCreds.delivery).toBe('not-sent');
    expect(withCreds.final).toBe(true);
    expect(withCreds.message).toBe('the proxy at http://proxy.corp:3128 (from HTTPS_PROXY) refused the user name and password given in HTTPS_PROXY (HTTP 407)');
    expect(withCreds.hint).toMatch(/credentials in HTTPS_PROXY/);
    expectPlain(withCreds.message);
    expectPlain(withCreds.hint);

    const without = connectFailureError(new ConnectFailure('tunnel', 'status', { status: 407 }), { ...DIRECT, proxy: NO_AUTH_PROXY });
    expect(without.exitCode).toBe(ExitCode.CONFIG);
    expect(without.message).toMatch(/asks for a user name and password \(HTTP 407\)/);
    expect(without.hint).toBe('put them in https_proxy: http://user:password@host:port (percent-encode special characters)');
    expect(proxyAuthError(NO_AUTH_PROXY).message).toBe(without.message);
  });

  it.each([
    [403, true],
    [404, true],
    [502, false],
    [503, false],
  ])('proxy: CONNECT answered %i → exit 69, not-sent, final=%s (a 5xx may pass)', (status, final) => {
    const error = connectFailureError(new ConnectFailure('tunnel', 'status', { status, statusText: 'Nope\u001b[31m' }), VIA);
    expect(error.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(error.delivery).toBe('not-sent');
    expect(error.final).toBe(final);
    expect(error.message).toMatch(new RegExp(`refused to open a connection to api\\.gateway\\.example:8443 \\(HTTP ${status} Nope`));
    expect(error.message).not.toContain('\u001b');
  });
});

describe('abortedError: the deadline or Ctrl-C, by how far the request got', () => {
  it.each<[Progress, FailureContext, string, 'not-sent' | 'maybe-sent']>([
    ['queued', DIRECT, 'could not connect to the gateway at api.gateway.example:8443 within 1 s', 'not-sent'],
    ['tcp', DIRECT, 'could not connect to the gateway at api.gateway.example:8443 within 1 s', 'not-sent'],
    ['tls', DIRECT, 'the TLS handshake with the gateway at api.gateway.example:8443 did not complete within 1 s', 'not-sent'],
    ['proxy', VIA, 'could not connect to the proxy at http://proxy.corp:3128 (from HTTPS_PROXY) within 1 s', 'not-sent'],
    ['tunnel', VIA, 'the proxy at http://proxy.corp:3128 (from HTTPS_PROXY) did not open a connection to api.gateway.example:8443 within 1 s', 'not-sent'],
    ['connected', DIRECT, 'no complete answer from the gateway within 1 s', 'maybe-sent'],
  ])('%s → exit 75: %s (%s)', (progress, ctx, message, delivery) => {
    const error = abortedError(progress, 1000, ctx);
    expect(error.exitCode).toBe(ExitCode.TEMPFAIL);
    expect(error.message).toBe(message);
    expect(error.delivery).toBe(delivery);
    expectPlain(error.hint);
  });

  it('Ctrl-C is exit 130 with the same delivery rule', () => {
    expect(abortedError('tls', 1000, DIRECT, true)).toMatchObject({ exitCode: ExitCode.INTERRUPTED, message: 'interrupted', delivery: 'not-sent' });
    expect(abortedError('connected', 1000, DIRECT, true)).toMatchObject({ exitCode: ExitCode.INTERRUPTED, delivery: 'maybe-sent' });
    // The signal's reason says which: SIGTERM is exit 143.
    expect(abortedError('connected', 1000, DIRECT, terminated())).toMatchObject({ exitCode: ExitCode.TERMINATED, message: 'terminated' });
  });

  it.each([
    [400, '0.4'],
    [1000, '1'],
    [1250, '1.3'],
    [15_000, '15'],
  ])('%i ms is written %s s', (ms, text) => {
    expect(seconds(ms)).toBe(text);
  });
});

describe('requestFailureError: failures once the request may have been written', () => {
  // As node:http's parser reports it: an llhttp code, and its reason.
  const parserError = (reason: string): Error => Object.assign(new Error(`Parse Error: ${reason}`), { code: 'HPE_INVALID_CONSTANT', reason });

  it.each(['Invalid header token', 'Invalid character in chunk size', 'Expected HTTP/, RTSP/ or ICE/'])(
    'malformed framing (%s) → exit 76, maybe-sent, final',
    (reason) => {
      const error = requestFailureError(parserError(reason), DIRECT, false);
      expect(error.exitCode).toBe(ExitCode.PROTOCOL);
      expect(error.delivery).toBe('maybe-sent');
      expect(error.final).toBe(true);
      expect(error.message).toBe(`the gateway's answer could not be understood: it is not valid HTTP/1.1 (${reason})`);
    },
  );

  it('headers larger than the parser takes → exit 76, "too large", final', () => {
    const error = requestFailureError(Object.assign(new Error('Parse Error: Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), DIRECT, false);
    expect(error).toMatchObject({ exitCode: ExitCode.PROTOCOL, delivery: 'maybe-sent', final: true });
    expect(error.message).toBe("the gateway's answer could not be understood: its headers are too large");
  });

  it('a connection reset after sending → exit 69, maybe-sent, retryable for reads', () => {
    const error = requestFailureError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), DIRECT, false);
    expect(error).toMatchObject({ exitCode: ExitCode.UNAVAILABLE, delivery: 'maybe-sent', final: false });
    expect(error.message).toBe('the connection to the gateway at api.gateway.example:8443 failed (ECONNRESET)');
  });
});

describe('describeTlsFailure', () => {
  const host = '127.0.0.1:8443';

  it('a certificate for another host names the base URL host and the certificate names', () => {
    const failure = describeTlsFailure('ERR_TLS_CERT_ALTNAME_INVALID', host, '127.0.0.1', { names: ['other.example', 'a.example', 'b.example', 'c.example'] });
    expect(failure.message).toBe(
      `the gateway's TLS certificate is not valid for 127.0.0.1: it was issued for "other.example", "a.example", "b.example" and 1 more`,
    );
    expect(failure.hint).toMatch(/check the host in the base URL \(127\.0\.0\.1\)/);
    expect(failure.final).toBe(true);
  });

  it.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'])(
    '%s: the hint names NODE_EXTRA_CA_CERTS and the host',
    (code) => {
      const failure = describeTlsFailure(code, host, '127.0.0.1');
      expect(failure.hint).toContain('NODE_EXTRA_CA_CERTS');
      expect(failure.hint).toContain('127.0.0.1');
      expect(failure.final).toBe(true);
    },
  );

  it('expired: says when, and to check the clock', () => {
    const failure = describeTlsFailure('CERT_HAS_EXPIRED', host, '127.0.0.1', { names: [], validTo: '2024-01-31' });
    expect(failure.message).toBe("the gateway's TLS certificate (at 127.0.0.1:8443) expired on 2024-01-31");
    expect(failure.hint).toMatch(/clock/);
  });

  it('every verification code is final, and gets a message', () => {
    for (const code of TLS_VERIFY_CODES) {
      const failure = describeTlsFailure(code, host, '127.0.0.1');
      expect(failure.final, code).toBe(true);
      expectPlain(failure.message);
    }
  });

  it('reads certificate names and dates', () => {
    expect(certificateNames('DNS:other.example, IP Address:10.0.0.1, email:x@y', 'cn')).toEqual(['other.example', '10.0.0.1']);
    expect(certificateNames(undefined, 'only-cn.example')).toEqual(['only-cn.example']);
    expect(certificateDate('Nov 22 02:56:03 2027 GMT')).toBe('2027-11-22');
    expect(certificateDate('garbage')).toBeUndefined();
  });
});

describe('CONNECT helpers', () => {
  it('the request: authority, Host, and Proxy-Authorization only when there are credentials', () => {
    const target = { protocol: 'https:' as const, hostname: '127.0.0.1', port: 8443 };
    expect(connectRequest(target, NO_AUTH_PROXY, 'gw/1')).toBe(
      'CONNECT 127.0.0.1:8443 HTTP/1.1\r\nHost: 127.0.0.1:8443\r\nUser-Agent: gw/1\r\nProxy-Connection: Keep-Alive\r\n\r\n',
    );
    expect(connectRequest({ ...target, hostname: '::1' }, PROXY, 'gw/1')).toContain(`CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n`);
    expect(connectRequest(target, PROXY, 'gw/1')).toContain(`Proxy-Authorization: Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}\r\n`);
  });

  it('the answer head', () => {
    expect(parseConnectHead('HTTP/1.1 200 Connection Established\r\nVia: x')).toEqual({ status: 200, statusText: 'Connection Established' });
    expect(parseConnectHead('HTTP/1.0 407 Proxy Authentication Required')).toEqual({ status: 407, statusText: 'Proxy Authentication Required' });
    expect(parseConnectHead('HTTP/1.1 200')).toEqual({ status: 200, statusText: '' });
    expect(parseConnectHead('SSH-2.0-OpenSSH_9.6')).toBeUndefined();
    expect(parseConnectHead('HTTP/2 200')).toBeUndefined();
  });
});
