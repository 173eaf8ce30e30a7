// Which proxy, if any, a request to the gateway goes through: read from the environment as curl
// reads it (curl's lib/proxy.c), so a machine set up for curl works for gw too. Pure: an env
// object in, a ProxyConfig (or nothing) out; the transport never reads process.env itself.
//
// - https:// targets: https_proxy, then HTTPS_PROXY, then all_proxy, then ALL_PROXY.
// - http:// targets (gw allows them for loopback hosts only): http_proxy, then all_proxy, then
//   ALL_PROXY. Upper-case HTTP_PROXY is ignored, as curl ignores it: under CGI a request header
//   "Proxy:" arrives as HTTP_PROXY, so a web request could redirect the tool's traffic.
// - For each name the lower-case variable wins; an empty variable counts as unset (curl_getenv).
// - no_proxy, else NO_PROXY: "*" alone bypasses the proxy for every host; otherwise a list of
//   names separated by commas (blanks around them allowed). A name matches that host and every
//   host under it ("example.com" and ".example.com" both match example.com and api.example.com,
//   never notexample.com); trailing dots are ignored; case does not matter. IP addresses match
//   IP literals only, optionally as CIDR ranges ("10.0.0.0/8", "fd00::/8"); IPv6 with or without
//   brackets. Loopback is NOT bypassed implicitly: curl sends 127.0.0.1 and localhost through
//   the proxy too unless NO_PROXY names them.
// - One extension over curl (whose names never carry a port): "host:port" or "[v6]:port"
//   bypasses the proxy for that port only.
// - The proxy URL is [http://][user:password@]host[:port] (curl's default port is 1080).
//   Credentials are percent-decoded and sent as Proxy-Authorization: Basic; they are never part
//   of anything shown. https:// and SOCKS proxies are not supported: a configuration error.
import { BlockList, isIP } from 'node:net';
import { ConfigError } from '../errors.js';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

export interface ProxyConfig {
  /** Always "http:". */
  readonly protocol: 'http:';
  /** Host name or IP address, IPv6 without brackets. */
  readonly hostname: string;
  readonly port: number;
  /** The variable the proxy came from ("https_proxy", "ALL_PROXY"…), for messages. */
  readonly variable: string;
  /** "Basic …" when the proxy URL carries credentials. Never shown. */
  readonly authorization?: string;
  /** The password as written and decoded, for scrubbing; never shown. */
  readonly secrets: readonly string[];
}

/** The proxy as it may be shown: scheme://host:port, never its credentials. */
export function proxyLabel(proxy: ProxyConfig): string {
  const host = proxy.hostname.includes(':') ? `[${proxy.hostname}]` : proxy.hostname;
  return `${proxy.protocol}//${host}:${proxy.port}`;
}

/** curl's curl_getenv: an empty variable is as good as unset. */
function getenv(env: ProxyEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function proxyVariable(target: URL, env: ProxyEnv): { variable: string; value: string } | undefined {
  const names = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'] : ['http_proxy', 'all_proxy', 'ALL_PROXY'];
  for (const variable of names) {
    const value = getenv(env, variable);
    if (value !== undefined) return { variable, value };
  }
  return undefined;
}

/** The host of a URL as curl compares it: IPv6 without brackets. */
function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function defaultPort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** One NO_PROXY entry split into its host part and an optional port (the extension over curl). */
function splitToken(token: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]*)\](?::(\d{1,5}))?$/.exec(token);
  if (bracketed) return bracketed[2] === undefined ? { host: bracketed[1]! } : { host: bracketed[1]!, port: Number(bracketed[2]) };
  const hostPort = /^([^:]*):(\d{1,5})$/.exec(token);
  if (hostPort) return { host: hostPort[1]!, port: Number(hostPort[2]) };
  return { host: token };
}

function matchName(token: string, name: string): boolean {
  let t = token.toLowerCase();
  if (t.endsWith('.')) t = t.slice(0, -1);
  if (t.startsWith('.')) t = t.slice(1);
  if (t === '') return false;
  if (t.length === name.length) return t === name;
  return t.length < name.length && name.endsWith(t) && name[name.length - t.length - 1] === '.';
}

function matchIp(token: string, ip: string, family: 4 | 6): boolean {
  const slash = token.indexOf('/');
  const network = slash === -1 ? token : token.slice(0, slash);
  const bitsText = slash === -1 ? undefined : token.slice(slash + 1);
  if (isIP(network) !== family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  let bits = family === 4 ? 32 : 128;
  if (bitsText !== undefined) {
    if (!/^\d{1,3}$/.test(bitsText)) return false;
    const n = Number(bitsText);
    // curl: /0 means the whole address (exact match); more bits than the address has never match.
    if (n > bits) return false;
    if (n !== 0) bits = n;
  }
  const list = new BlockList();
  list.addSubnet(network, bits, type);
  return list.check(ip, type);
}

/**
 * Whether NO_PROXY says not to use a proxy for this host and port. `hostname` as in a URL
 * (IPv6 may be bracketed). Follows curl's Curl_check_noproxy, plus host:port entries.
 */
export function noProxyMatches(hostname: string, port: number, noProxy: string | undefined): boolean {
  if (noProxy === undefined || noProxy === '') return false;
  if (noProxy.trim() === '*') return true;
  let name = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const family = isIP(name);
  if (family === 0 && name.endsWith('.')) name = name.slice(0, -1);
  name = name.toLowerCase();
  if (name === '') return false;

  // curl's loop: blanks, a token up to a blank or a comma, blanks; anything but a comma then ends the list.
  const blank = (c: string | undefined): boolean => c === ' ' || c === '\t';
  let i = 0;
  while (i < noProxy.length) {
    while (blank(noProxy[i])) i++;
    const start = i;
    while (i < noProxy.length && !blank(noProxy[i]) && noProxy[i] !== ',') i++;
    const token = noProxy.slice(start, i);
    if (token !== '') {
      const { host, port: tokenPort } = splitToken(token);
      if (tokenPort === undefined || tokenPort === port) {
        const match = family === 0 ? matchName(host, name) : matchIp(host, name, family as 4 | 6);
        if (match) return true;
      }
    }
    while (blank(noProxy[i])) i++;
    if (noProxy[i] !== ',') break;
    while (noProxy[i] === ',') i++;
  }
  return false;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Parses a proxy variable's value; the value itself never appears in an error (it may hold a password). */
export function parseProxy(value: string, variable: string): ProxyConfig {
  const text = value.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  const hint = `use an http:// proxy in ${variable}, or list the gateway's host in NO_PROXY`;
  if (scheme !== undefined && scheme !== 'http') {
    const kind = scheme.startsWith('socks') ? `a SOCKS proxy (${scheme}://)` : `an ${scheme}:// proxy`;
    throw new ConfigError(`${variable} names ${kind}; gw supports http:// proxies only`, hint);
  }
  let url: URL;
  try {
    url = new URL(scheme === undefined ? `http://${text}` : text);
  } catch {
    throw new ConfigError(`${variable} is not a valid proxy address`, `write it as http://host:port (or http://user:password@host:port)`);
  }
  if (url.hostname === '') throw new ConfigError(`${variable} is not a valid proxy address`, 'write it as http://host:port');
  // WHATWG URL drops a port equal to the scheme's default (":80"), which curl keeps: read it back.
  const authority = (scheme === undefined ? text : text.slice(text.indexOf('://') + 3)).split(/[/?#]/, 1)[0] ?? '';
  const explicitPort = /^(?:\[[^\]]*\]|[^:]*):(\d+)$/.exec(authority.slice(authority.lastIndexOf('@') + 1))?.[1];
  const port = url.port !== '' ? Number(url.port) : explicitPort !== undefined ? Number(explicitPort) : 1080;
  const user = decode(url.username);
  const password = decode(url.password);
  const hasCredentials = url.username !== '' || url.password !== '';
  const secrets = [...new Set([password, url.password].filter((s) => s !== ''))];
  return {
    protocol: 'http:',
    hostname: bareHost(url),
    port,
    variable,
    ...(hasCredentials && { authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` }),
    secrets,
  };
}

/**
 * The proxy to use for requests to `target`, from the environment `env`, as curl chooses it; or
 * undefined for a direct connection. Throws ConfigError (exit 78) for a proxy gw cannot use.
 */
export function proxyFor(target: URL, env: ProxyEnv): ProxyConfig | undefined {
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return undefined;
  const chosen = proxyVariable(target, env);
  if (chosen === undefined) return undefined;
  const noProxy = getenv(env, 'no_proxy') ?? getenv(env, 'NO_PROXY');
  if (noProxyMatches(target.hostname, defaultPort(target), noProxy)) return undefined;
  return parseProxy(chosen.value, chosen.variable);
}
