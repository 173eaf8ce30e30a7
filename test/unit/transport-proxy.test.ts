// Tests for src/gateway/proxy.ts: which proxy curl's rules choose for a gateway URL, NO_PROXY
// matching (curl's Curl_check_noproxy, plus host:port entries), and proxy URL parsing (default
// port 1080, credentials decoded into Proxy-Authorization and never in the label).
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { noProxyMatches, parseProxy, proxyFor, proxyLabel, type ProxyEnv } from '../../src/gateway/proxy.js';

const HTTPS = new URL('https://api.gateway.example/');
const HTTP_LOOPBACK = new URL('http://127.0.0.1:8080/');

const chosen = (url: URL, env: ProxyEnv): string | undefined => {
  const proxy = proxyFor(url, env);
  return proxy && `${proxy.variable} ${proxyLabel(proxy)}`;
};

describe('proxyFor: which variable applies (curl lib/proxy.c)', () => {
  it.each<[string, URL, ProxyEnv, string | undefined]>([
    ['nothing set → direct', HTTPS, {}, undefined],
    ['https target: HTTPS_PROXY', HTTPS, { HTTPS_PROXY: 'http://up:3128' }, 'HTTPS_PROXY http://up:3128'],
    ['https target: https_proxy', HTTPS, { https_proxy: 'http://low:3128' }, 'https_proxy http://low:3128'],
    ['lower case wins over upper case', HTTPS, { HTTPS_PROXY: 'http://up:1', https_proxy: 'http://low:2' }, 'https_proxy http://low:2'],
    ['an empty lower-case variable counts as unset (curl_getenv)', HTTPS, { https_proxy: '', HTTPS_PROXY: 'http://up:1' }, 'HTTPS_PROXY http://up:1'],
    ['https target: ALL_PROXY when no https one', HTTPS, { ALL_PROXY: 'http://all:1' }, 'ALL_PROXY http://all:1'],
    ['all_proxy wins over ALL_PROXY', HTTPS, { ALL_PROXY: 'http://a:1', all_proxy: 'http://b:2' }, 'all_proxy http://b:2'],
    ['the scheme-specific variable wins over ALL_PROXY', HTTPS, { all_proxy: 'http://all:1', HTTPS_PROXY: 'http://up:2' }, 'HTTPS_PROXY http://up:2'],
    ['https target ignores http_proxy', HTTPS, { http_proxy: 'http://h:1' }, undefined],
    ['http target: http_proxy', HTTP_LOOPBACK, { http_proxy: 'http://h:1' }, 'http_proxy http://h:1'],
    ['http target: upper-case HTTP_PROXY is ignored, as curl ignores it', HTTP_LOOPBACK, { HTTP_PROXY: 'http://h:1' }, undefined],
    ['http target: HTTP_PROXY ignored, ALL_PROXY used', HTTP_LOOPBACK, { HTTP_PROXY: 'http://h:1', ALL_PROXY: 'http://all:2' }, 'ALL_PROXY http://all:2'],
    ['http target ignores HTTPS_PROXY', HTTP_LOOPBACK, { HTTPS_PROXY: 'http://up:1' }, undefined],
    ['loopback is proxied too unless NO_PROXY says so (curl)', new URL('http://localhost:9/'), { http_proxy: 'http://h:1' }, 'http_proxy http://h:1'],
    ['no_proxy wins over NO_PROXY', HTTPS, { HTTPS_PROXY: 'http://p:1', no_proxy: 'other.example', NO_PROXY: '*' }, 'HTTPS_PROXY http://p:1'],
    ['NO_PROXY when no_proxy is empty', HTTPS, { HTTPS_PROXY: 'http://p:1', no_proxy: '', NO_PROXY: 'gateway.example' }, undefined],
    ['NO_PROXY=* → direct', HTTPS, { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' }, undefined],
  ])('%s', (_name, url, env, expected) => {
    expect(chosen(url, env)).toBe(expected);
  });

  it('a bypassed host never parses the proxy variable (a broken one is not an error then)', () => {
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'socks5://p:1', NO_PROXY: '.gateway.example' })).toBeUndefined();
  });
});

describe('noProxyMatches (curl semantics)', () => {
  it.each<[string, number, string, boolean]>([
    // Names: exact, suffix at a dot boundary, with or without a leading dot, case-insensitive.
    ['example.com', 443, 'example.com', true],
    ['api.example.com', 443, 'example.com', true],
    ['api.example.com', 443, '.example.com', true],
    ['example.com', 443, '.example.com', true],
    ['notexample.com', 443, 'example.com', false],
    ['example.com', 443, 'api.example.com', false],
    ['API.Example.COM', 443, 'example.com', true],
    ['example.com.', 443, 'example.com', true],
    ['example.com', 443, 'example.com.', true],
    // Lists: commas, blanks around names, empty entries.
    ['b.example', 443, 'a.example,b.example', true],
    ['b.example', 443, 'a.example , b.example', true],
    ['b.example', 443, ',,a.example,,b.example,', true],
    ['b.example', 443, '\ta.example,\tb.example ', true],
    // curl: blanks without a comma end the list.
    ['b.example', 443, 'a.example b.example', false],
    // "*" alone matches everything; inside a list it is just a name that matches nothing.
    ['anything.example', 443, '*', true],
    ['anything.example', 443, ' * ', true],
    ['anything.example', 443, 'a.example,*', false],
    // No implicit localhost bypass, and names never match IP addresses or the reverse.
    ['127.0.0.1', 80, 'localhost', false],
    ['localhost', 80, '127.0.0.1', false],
    ['localhost', 80, 'localhost', true],
    // IP literals and CIDR ranges.
    ['127.0.0.1', 80, '127.0.0.1', true],
    ['127.0.0.2', 80, '127.0.0.1', false],
    ['127.0.0.2', 80, '127.0.0.0/8', true],
    ['10.1.2.3', 80, '127.0.0.0/8', false],
    ['192.168.7.9', 80, '192.168.0.0/16', true],
    ['127.0.0.1', 80, '127.0.0.1/0', true],
    ['127.0.0.2', 80, '127.0.0.1/0', false],
    ['127.0.0.1', 80, '127.0.0.0/33', false],
    ['127.0.0.1', 80, '127.0.0.0/x', false],
    ['[::1]', 443, '::1', true],
    ['[::1]', 443, '[::1]', true],
    ['::1', 443, '::1', true],
    ['[::2]', 443, '::1', false],
    ['[fd00::5]', 443, 'fd00::/8', true],
    ['[fe80::5]', 443, 'fd00::/8', false],
    ['127.0.0.1', 80, '::1', false],
    // host:port entries (an extension: curl's entries carry no port).
    ['example.com', 8443, 'example.com:8443', true],
    ['example.com', 443, 'example.com:8443', false],
    ['api.example.com', 8443, '.example.com:8443', true],
    ['127.0.0.1', 4000, '127.0.0.1:4000', true],
    ['127.0.0.1', 4001, '127.0.0.1:4000', false],
    ['[::1]', 4000, '[::1]:4000', true],
    ['[::1]', 4001, '[::1]:4000', false],
    // Nothing set.
    ['example.com', 443, '', false],
  ])('%s:%i with NO_PROXY=%j → %s', (host, port, noProxy, expected) => {
    expect(noProxyMatches(host, port, noProxy)).toBe(expected);
  });

  it('with no NO_PROXY at all nothing is bypassed', () => {
    expect(noProxyMatches('example.com', 443, undefined)).toBe(false);
  });

  it('the gateway port in NO_PROXY is the URL port, or 443/80 by default', () => {
    expect(proxyFor(new URL('https://gw.example/'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'gw.example:443' })).toBeUndefined();
    expect(proxyFor(new URL('https://gw.example:8443/'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'gw.example:443' })).toBeDefined();
    expect(proxyFor(new URL('http://127.0.0.1/'), { http_proxy: 'http://p:1', NO_PROXY: '127.0.0.1:80' })).toBeUndefined();
  });
});

describe('parseProxy', () => {
  it('defaults the scheme to http:// and the port to 1080, as curl does', () => {
    const proxy = parseProxy('proxy.corp', 'HTTPS_PROXY');
    expect(proxyLabel(proxy)).toBe('http://proxy.corp:1080');
    expect(proxy.authorization).toBeUndefined();
    expect(proxy.secrets).toEqual([]);
  });

  it('keeps the port, drops any path, brackets IPv6 in the label', () => {
    expect(proxyLabel(parseProxy('http://proxy.corp:3128/', 'x'))).toBe('http://proxy.corp:3128');
    expect(proxyLabel(parseProxy('http://[::1]:3128', 'x'))).toBe('http://[::1]:3128');
    expect(parseProxy('http://[::1]:3128', 'x').hostname).toBe('::1');
    // An explicit :80 stays 80 (WHATWG URL would drop it as the default and curl would then use 1080).
    expect(proxyLabel(parseProxy('  HTTP://Proxy.Corp:80  ', 'x'))).toBe('http://proxy.corp:80');
    expect(proxyLabel(parseProxy('proxy.corp:80', 'x'))).toBe('http://proxy.corp:80');
    expect(proxyLabel(parseProxy('http://u:p@proxy.corp:80/x', 'x'))).toBe('http://proxy.corp:80');
  });

  it('turns credentials into Proxy-Authorization (percent-decoded) and never shows them', () => {
    const proxy = parseProxy('http://al%40ce:p%3Ass%20w0rd@proxy.corp:3128', 'https_proxy');
    expect(proxy.authorization).toBe(`Basic ${Buffer.from('al@ce:p:ss w0rd').toString('base64')}`);
    expect(proxyLabel(proxy)).toBe('http://proxy.corp:3128');
    expect(proxy.secrets).toEqual(expect.arrayContaining(['p:ss w0rd', 'p%3Ass%20w0rd']));
    expect(JSON.stringify({ ...proxy, authorization: undefined, secrets: undefined })).not.toContain('w0rd');
  });

  it('a user without a password is still sent', () => {
    expect(parseProxy('http://bob@proxy.corp:3128', 'x').authorization).toBe(`Basic ${Buffer.from('bob:').toString('base64')}`);
  });

  it.each([
    ['socks5://proxy.corp:1080', /SOCKS proxy.*http:\/\/ proxies only/],
    ['socks5h://proxy.corp:1080', /SOCKS/],
    ['https://proxy.corp:443', /an https:\/\/ proxy; gw supports http:\/\/ proxies only/],
  ])('%s is a configuration error (exit 78) naming the variable', (value, message) => {
    const error = (() => {
      try {
        parseProxy(value, 'ALL_PROXY');
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.exitCode).toBe(78);
    expect(error.message).toMatch(/^ALL_PROXY names /);
    expect(error.message).toMatch(message);
  });

  it('a malformed proxy is exit 78 and never echoes the value (it may hold a password)', () => {
    for (const value of ['http://us er:s3cr3t-pw@', 'http://:s3cr3t-pw@[::1', 'http://a b:s3cr3t-pw@host:99999']) {
      let error: unknown;
      try {
        parseProxy(value, 'HTTPS_PROXY');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toBe('HTTPS_PROXY is not a valid proxy address');
      expect(JSON.stringify(error) + String((error as Error).message) + String((error as ConfigError).hint)).not.toContain('s3cr3t');
    }
  });
});
