// The one home of the notification signature rule (docs/gateway.md §7), shared by
// `gw listen`, `gw webhook verify`, `gw webhook send` and the sandbox's deliveries:
//
//   HMAC-SHA512 over the RAW body bytes, written as 128 lower-case hex characters, in the header
//   `HMAC` (header names are case-insensitive). The key is the merchant API key for payment
//   notifications and the payout API key for `type: payout`.
//
// Pure: no I/O. Keys are turned into KeyObjects once (`NotificationKeys`), so a receiver's
// per-request path is one HMAC and one constant-time comparison. Why a signature failed is worked
// out only on request, never on the hot path: signature-diagnosis.ts.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { oneLine } from '../output/sanitize.js';

/** The header the gateway puts the signature in, as Node writes incoming header names (lower case). */
export const SIGNATURE_HEADER = 'hmac';
/** As the gateway writes it when sending. */
export const SIGNATURE_HEADER_NAME = 'HMAC';
/** Length of a signature: SHA-512's 64 bytes as hex. */
export const SIGNATURE_HEX_LENGTH = 128;

export type KeyKind = 'merchant' | 'payout';

/** `type` values of payment notifications: `payment` (legacy bodies) and the newer API's kinds. */
export const PAYMENT_TYPES = ['payment', 'invoice', 'white_label', 'static_address', 'payment_link', 'donation'] as const;
export const PAYOUT_TYPE = 'payout';

export const SIGNATURE_FORMAT = /^[0-9a-f]{128}$/;

/** Which key signs a notification of this `type`; undefined when the type is missing or unknown. */
export function keyKindForType(type: string | undefined | null): KeyKind | undefined {
  if (type === undefined || type === null) return undefined;
  const t = type.trim().toLowerCase();
  if (t === PAYOUT_TYPE) return 'payout';
  return (PAYMENT_TYPES as readonly string[]).includes(t) ? 'merchant' : undefined;
}

export function otherKind(kind: KeyKind): KeyKind {
  return kind === 'merchant' ? 'payout' : 'merchant';
}

/** What a person calls the key. */
export function keyName(kind: KeyKind): string {
  return kind === 'merchant' ? 'merchant API key' : 'payout API key';
}

/** The signature of `body` with `key`: lower-case hex HMAC-SHA512. */
export function signBody(key: KeyObject | string, body: Uint8Array | string): string {
  return createHmac('sha512', key).update(body).digest('hex');
}

/**
 * The signature header's value from a header map, whatever the case of its name (Node lower-cases
 * incoming names; a map a person wrote may not). A repeated header gives its first value.
 */
export function signatureFromHeaders(headers: Readonly<Record<string, string | readonly string[] | undefined>>): string | undefined {
  let value = headers[SIGNATURE_HEADER];
  if (value === undefined) {
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === SIGNATURE_HEADER) {
        value = headers[name];
        break;
      }
    }
  }
  const first = typeof value === 'string' ? value : value?.[0];
  return first === undefined ? undefined : first.trim();
}

/** The keys a receiver verifies with, each made a KeyObject once. Never printable. */
export class NotificationKeys {
  readonly #keys: Partial<Record<KeyKind, KeyObject>> = {};

  constructor(keys: { merchant?: string | undefined; payout?: string | undefined }) {
    for (const kind of ['merchant', 'payout'] as const) {
      const value = keys[kind];
      if (value !== undefined && value !== '') this.#keys[kind] = createSecretKey(Buffer.from(value, 'utf8'));
    }
  }

  has(kind: KeyKind): boolean {
    return this.#keys[kind] !== undefined;
  }

  get kinds(): KeyKind[] {
    return (['merchant', 'payout'] as const).filter((k) => this.has(k));
  }

  /** The raw digest of `body` with the key of `kind` (undefined without that key). */
  digest(kind: KeyKind, body: Uint8Array | string, algorithm: 'sha512' | 'sha256' = 'sha512'): Buffer | undefined {
    const key = this.#keys[kind];
    return key === undefined ? undefined : createHmac(algorithm, key).update(body).digest();
  }

  /** Whether `signature` (already checked to be 128 lower-case hex) is the body's, in constant time. */
  matches(kind: KeyKind, body: Uint8Array | string, signatureBytes: Buffer): boolean {
    const expected = this.digest(kind, body);
    return expected !== undefined && digestsEqual(expected, signatureBytes);
  }

  toJSON(): string {
    return '[keys]';
  }

  toString(): string {
    return '[keys]';
  }
}

/**
 * Constant-time comparison of two digests. The lengths are not secret (a signature's length is
 * fixed), so unequal lengths are simply unequal; equal lengths go through crypto.timingSafeEqual.
 */
export function digestsEqual(expected: Buffer, received: Buffer): boolean {
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** Why a notification was refused; the HTTP status a receiver answers with. */
export type RefusalCode = 'missing-signature' | 'malformed-signature' | 'no-key' | 'wrong-key-kind' | 'mismatch';

export type Verdict =
  | {
      verified: true;
      keyKind: KeyKind;
      /** The type did not say which key: it verified with this one. */
      typeKnown: boolean;
    }
  | { verified: false; code: RefusalCode; httpStatus: 401 | 403; message: string; keyKind?: KeyKind };

/**
 * Verifies one notification: the raw body, the signature header's value, and the body's `type`
 * (which decides the key). The fast path is one HMAC and one timingSafeEqual; a mismatch costs
 * one more HMAC, to say whether the other key would have verified it.
 */
export function verifyNotification(body: Uint8Array | string, signature: string | undefined, type: string | null | undefined, keys: NotificationKeys): Verdict {
  if (signature === undefined || signature === '') {
    return { verified: false, code: 'missing-signature', httpStatus: 401, message: 'no HMAC signature header' };
  }
  if (!SIGNATURE_FORMAT.test(signature)) {
    const upper = /^[0-9a-fA-F]{128}$/.test(signature);
    return {
      verified: false,
      code: 'malformed-signature',
      httpStatus: 403,
      message: upper
        ? 'the HMAC header is upper-case hex; the gateway writes lower-case'
        : `the HMAC header is not ${SIGNATURE_HEX_LENGTH} lower-case hex characters (got ${signature.length} characters)`,
    };
  }
  const received = Buffer.from(signature, 'hex');
  const expected = keyKindForType(type);
  if (expected === undefined) {
    // No type, or one gw does not know: either of the merchant's keys is the merchant's.
    for (const kind of keys.kinds) if (keys.matches(kind, body, received)) return { verified: true, keyKind: kind, typeKnown: false };
    if (keys.kinds.length === 0) return { verified: false, code: 'no-key', httpStatus: 403, message: 'no key is configured to verify with' };
    return {
      verified: false,
      code: 'mismatch',
      httpStatus: 403,
      message: `the signature matches neither configured key (the body's type does not say which key signs it)`,
    };
  }
  if (!keys.has(expected)) {
    return {
      verified: false,
      code: 'no-key',
      httpStatus: 403,
      keyKind: expected,
      message: `no ${keyName(expected)} is configured to verify a ${typeName(type)} notification`,
    };
  }
  if (keys.matches(expected, body, received)) return { verified: true, keyKind: expected, typeKnown: true };
  const other = otherKind(expected);
  if (keys.matches(other, body, received)) {
    return {
      verified: false,
      code: 'wrong-key-kind',
      httpStatus: 403,
      keyKind: other,
      message: `signed with the ${keyName(other)}, but a ${typeName(type)} notification is signed with the ${keyName(expected)}`,
    };
  }
  return { verified: false, code: 'mismatch', httpStatus: 403, keyKind: expected, message: `the signature does not match the ${keyName(expected)}` };
}

/** The type as a message shows it: a known word as is, anything else made safe and short. */
export function typeName(type: string | null | undefined): string {
  if (type === undefined || type === null) return '(no type)';
  const t = type.trim().toLowerCase();
  return keyKindForType(t) === undefined ? `"${oneLine(type, 40)}"` : `"${t}"`;
}
