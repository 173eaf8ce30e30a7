// A URL as gw may print it: never with the user name and password a URL can carry
// (https://user:password@host/). gw refuses credentials in the URLs it is given, and says so
// without echoing them: an error about a URL that does not even parse still shows its text, with
// everything between the scheme and the last "@" masked.

const MASK = '****';

/**
 * Text that may be a URL, with its userinfo masked: "https://user:pw@host/x" → "https://****@host/x".
 * Everything before the last "@" after the scheme is masked, even where a parser would see a path
 * (a password may hold an unencoded "/" or "#"): masking too much is harmless, too little is not.
 */
export function maskUrlText(text: string): string {
  const at = text.lastIndexOf('@');
  if (at === -1) return text;
  const scheme = /^\s*(?:[a-z][a-z0-9+.-]*:\/\/)?/i.exec(text)?.[0] ?? '';
  if (at < scheme.length) return text;
  return `${text.slice(0, scheme.length)}${MASK}${text.slice(at)}`;
}

/** A parsed URL's text with any user name and password masked. */
export function maskUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.username = MASK;
  copy.password = '';
  return copy.href;
}
