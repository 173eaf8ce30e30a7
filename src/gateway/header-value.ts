// What an HTTP header value can carry: checked before a request is sent (src/gateway/transport.ts),
// and by the clients for the keys they put in headers, so they can name the key.

/**
 * Why `value` cannot be sent as an HTTP header value, or undefined when it can: a control character
 * (a line break, NUL, DEL…) is refused by HTTP itself (RFC 9110 §5.5), and a character outside
 * ASCII would not reach the gateway as written (HTTP/1.1 sends header bytes as Latin-1). Says what
 * kind of character, never which (the value is a key).
 */
export function unsendableHeaderValue(value: string): string | undefined {
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return 'a control character (such as a line break)';
  if (/[^\u0000-\u007f]/.test(value)) return 'a character outside ASCII';
  return undefined;
}
