// Why a notification's signature does not verify (gw webhook verify), worked out only on request,
// never on a receiver's hot path: the wrong key kind, a body changed after signing, or a signature
// written differently. Each hypothesis is checked by computing the HMAC it implies, under the one
// rule of signature.ts (docs/gateway.md §7); nothing is guessed.
import {
  digestsEqual,
  type KeyKind,
  keyKindForType,
  keyName,
  type NotificationKeys,
  otherKind,
  SIGNATURE_FORMAT,
  SIGNATURE_HEX_LENGTH,
  typeName,
} from './signature.js';

export type CauseCode =
  | 'wrong-key-kind'
  | 'type-unknown'
  | 'trailing-newline-added'
  | 'trailing-newline-removed'
  | 'line-endings'
  | 'reserialised'
  | 'uppercase'
  | 'truncated'
  | 'base64'
  | 'sha256'
  | 'malformed'
  | 'no-key'
  | 'no-match';

export interface Cause {
  code: CauseCode;
  message: string;
}

export interface Diagnosis {
  verified: boolean;
  /** The key the signature was made with, when gw found it. */
  keyKind: KeyKind | undefined;
  /** The key the body's type calls for (undefined: no or unknown type). */
  expectedKind: KeyKind | undefined;
  /** Why it does not verify, most likely first; empty when it verifies as is. */
  causes: Cause[];
}

/** One way the body may have been changed after it was signed: the bytes that were signed. */
interface Candidate {
  bytes: Buffer;
  code: CauseCode;
  message: string;
}

/**
 * Works out why `signature` is not the signature of `body`: the wrong key kind, a body changed
 * after signing (trailing newline, line endings, JSON re-serialised: whitespace, key order,
 * escaping, number forms), or a signature written differently (upper case, cut short, base64,
 * HMAC-SHA256). Each hypothesis is checked by computing the HMAC it implies; nothing is guessed.
 */
export function diagnose(body: Buffer, signature: string, type: string | null | undefined, keys: NotificationKeys): Diagnosis {
  const expectedKind = keyKindForType(type);
  const kinds = keys.kinds;
  if (kinds.length === 0) {
    return {
      verified: false,
      keyKind: undefined,
      expectedKind,
      causes: [{ code: 'no-key', message: 'no merchant or payout API key is configured to verify with' }],
    };
  }
  // The kind the type calls for first, then the other.
  const order: KeyKind[] = expectedKind === undefined ? kinds : [expectedKind, otherKind(expectedKind)].filter((k) => keys.has(k));
  const sig = signature.trim();
  const kindNote = (kind: KeyKind): Cause | undefined =>
    expectedKind !== undefined && kind !== expectedKind
      ? {
          code: 'wrong-key-kind',
          message: `it was signed with the ${keyName(kind)}, but a ${typeName(type)} notification is signed with the ${keyName(expectedKind)}: check which key your receiver uses for which type (payout → payout key, every other type → merchant key)`,
        }
      : undefined;
  const result = (kind: KeyKind, causes: Cause[]): Diagnosis => {
    const note = kindNote(kind);
    const all = note === undefined ? [...causes] : [note, ...causes];
    if (expectedKind === undefined && causes.length === 0) {
      all.unshift({
        code: 'type-unknown',
        message: `the body's type ${typeName(type)} does not say which key signs it; it verifies with the ${keyName(kind)}`,
      });
    }
    return { verified: causes.length === 0 && note === undefined, keyKind: kind, expectedKind, causes: all };
  };

  // The body as it is, with each key: the signature as sent, then as it might have been mangled.
  const digests = new Map<KeyKind, Buffer>();
  for (const kind of order) digests.set(kind, keys.digest(kind, body) as Buffer);
  for (const kind of order) {
    const hex = (digests.get(kind) as Buffer).toString('hex');
    if (SIGNATURE_FORMAT.test(sig) && digestsEqual(Buffer.from(hex, 'hex'), Buffer.from(sig, 'hex'))) return result(kind, []);
  }
  for (const kind of order) {
    const digest = digests.get(kind) as Buffer;
    const hex = digest.toString('hex');
    const lower = sig.toLowerCase();
    if (sig !== lower && lower === hex) {
      return result(kind, [
        {
          code: 'uppercase',
          message: 'the signature is the right one written in upper case: the gateway sends lower-case hex, so compare lower-case (or decode both from hex)',
        },
      ]);
    }
    if (/^[0-9a-fA-F]{8,127}$/.test(sig) && hex.startsWith(lower)) {
      return result(kind, [
        {
          code: 'truncated',
          message: `the signature is cut short: its ${sig.length} characters are the start of the right one, which has ${SIGNATURE_HEX_LENGTH} (a column or variable too small for the header?)`,
        },
      ]);
    }
    if (sig === digest.toString('base64') || sig === digest.toString('base64url')) {
      return result(kind, [{ code: 'base64', message: 'the signature is the right digest written in base64: the gateway writes it as lower-case hex' }]);
    }
    if (/^[0-9a-fA-F]{64}$/.test(sig) && lower === (keys.digest(kind, body, 'sha256') as Buffer).toString('hex')) {
      return result(kind, [{ code: 'sha256', message: 'the signature is an HMAC-SHA256; the gateway signs with HMAC-SHA512 (128 hex characters)' }]);
    }
  }

  // The body changed after it was signed: the signed bytes are one of these.
  if (SIGNATURE_FORMAT.test(sig)) {
    const wanted = Buffer.from(sig, 'hex');
    for (const candidate of bodyCandidates(body)) {
      for (const kind of order) {
        if (keys.matches(kind, candidate.bytes, wanted)) return result(kind, [{ code: candidate.code, message: candidate.message }]);
      }
    }
  }

  const causes: Cause[] = [];
  if (!SIGNATURE_FORMAT.test(sig)) {
    causes.push({
      code: 'malformed',
      message: `the signature is not ${SIGNATURE_HEX_LENGTH} lower-case hex characters (it has ${sig.length} characters${/^[0-9a-fA-F]*$/.test(sig) ? '' : ', not all hex digits'})`,
    });
  }
  const tried = order.map(keyName).join(' or the ');
  causes.push({
    code: 'no-match',
    message:
      `it matches neither the body with the ${tried}, nor any usual change of the body (trailing newline, line endings, JSON re-serialised): ` +
      'the key may be another one (another account, a regenerated key, the sandbox key), or this is not the body that was signed',
  });
  return { verified: false, keyKind: undefined, expectedKind, causes };
}

/** The bytes the gateway may have signed, given the body a receiver ended up with. */
function* bodyCandidates(body: Buffer): Generator<Candidate> {
  const seen = new Set<string>([body.toString('latin1')]);
  const fresh = (bytes: Buffer): boolean => {
    const k = bytes.toString('latin1');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  };
  const text = body.toString('utf8');
  const trimmed = text.replace(/[\r\n]+$/, '');
  const make = (s: string): Buffer => Buffer.from(s, 'utf8');

  if (trimmed !== text) {
    const b = make(trimmed);
    if (fresh(b)) {
      yield {
        bytes: b,
        code: 'trailing-newline-added',
        message: 'a line break was added at the end of the body after it was signed (an editor, echo, or a heredoc): verify the bytes exactly as received',
      };
    }
  }
  for (const ending of ['\n', '\r\n']) {
    const b = make(`${trimmed}${ending}`);
    if (fresh(b)) {
      yield {
        bytes: b,
        code: 'trailing-newline-removed',
        message: `the signed body ended with a line break (${JSON.stringify(ending)}) that your copy lost: verify the bytes exactly as received`,
      };
    }
  }
  if (text.includes('\n')) {
    // Each candidate is what the signed body may have been; the change happened the other way.
    for (const [from, to, what] of [
      [/\r\n/g, '\n', 'LF line endings became CRLF'],
      [/\r?\n/g, '\r\n', 'CRLF line endings became LF'],
    ] as const) {
      const b = make(text.replace(from, to));
      if (fresh(b)) yield { bytes: b, code: 'line-endings', message: `the body's line endings were changed after it was signed (${what})` };
    }
  }

  let value: unknown;
  let exact = true;
  try {
    value = parseExact(trimmed);
  } catch {
    exact = false;
  }
  if (!exact) return;
  for (const numbers of ['exact', 'float'] as const) {
    const v = numbers === 'exact' ? value : JSON.parse(trimmed);
    for (const sorted of [false, true]) {
      for (const layout of LAYOUTS) {
        for (const escaping of ESCAPINGS) {
          const s = serialise(sorted ? sortKeys(v) : v, layout, escaping);
          const b = make(s);
          if (!fresh(b)) continue;
          const changes = [
            `the signed bytes are the same JSON ${layout.describe}`,
            ...(sorted ? ['with its keys in sorted order'] : []),
            ...(escaping.describe === '' ? [] : [escaping.describe]),
            ...(numbers === 'float' ? ['with numbers written as a JSON parser re-writes them (e.g. 10.50 → 10.5)'] : []),
          ];
          yield {
            bytes: b,
            code: 'reserialised',
            message: `the body was parsed and re-serialised after it was signed (${changes.join(', ')}): only the raw bytes as received verify; hash them before any JSON parsing`,
          };
        }
      }
    }
  }
}

interface Layout {
  describe: string;
  write(value: string[], keys: string[] | undefined, depth: number): string;
}

const pad = (unit: string, depth: number): string => unit.repeat(depth);

function indented(unit: string, describe: string): Layout {
  return {
    describe,
    write: (items, keys, depth) => {
      if (items.length === 0) return keys === undefined ? '[]' : '{}';
      const inner = pad(unit, depth + 1);
      const parts = items.map((item, i) => `${inner}${keys === undefined ? '' : `${keys[i]}: `}${item}`);
      return keys === undefined ? `[\n${parts.join(',\n')}\n${pad(unit, depth)}]` : `{\n${parts.join(',\n')}\n${pad(unit, depth)}}`;
    },
  };
}

function inline(comma: string, colon: string, describe: string): Layout {
  return {
    describe,
    write: (items, keys) => {
      const parts = keys === undefined ? items : items.map((item, i) => `${keys[i]}${colon}${item}`);
      return keys === undefined ? `[${parts.join(comma)}]` : `{${parts.join(comma)}}`;
    },
  };
}

const LAYOUTS: readonly Layout[] = [
  inline(',', ':', 'written compactly (no spaces)'),
  inline(', ', ': ', 'written with ", " and ": " separators (Python\'s json.dumps)'),
  indented('  ', 'indented by 2 spaces'),
  indented('    ', 'indented by 4 spaces'),
  indented('\t', 'indented by tabs'),
];

interface Escaping {
  describe: string;
  slashes: boolean;
  unicode: boolean;
}

const ESCAPINGS: readonly Escaping[] = [
  { describe: '', slashes: false, unicode: false },
  { describe: 'with "/" escaped as "\\/"', slashes: true, unicode: false },
  { describe: 'with non-ASCII characters escaped as \\uXXXX', slashes: false, unicode: true },
  { describe: 'with "/" and non-ASCII characters escaped (PHP\'s json_encode)', slashes: true, unicode: true },
];

/** A JSON number kept as its literal, so re-serialising writes exactly the digits received. */
class NumberLiteral {
  constructor(readonly text: string) {}
}

const NUMBER_MARK = '\ue000gw-number:';

/** JSON.parse that keeps number literals (and key order, which JSON.parse keeps for non-index keys only). */
function parseExact(text: string): unknown {
  const literals: string[] = [];
  // Replace every number literal outside strings with a unique marker string, then parse.
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => {
    if (token.startsWith('"')) return token;
    literals.push(token);
    return `"${NUMBER_MARK}${literals.length - 1}"`;
  });
  return restore(JSON.parse(marked) as unknown, literals);
}

function restore(value: unknown, literals: readonly string[]): unknown {
  if (typeof value === 'string' && value.startsWith(NUMBER_MARK)) return new NumberLiteral(literals[Number(value.slice(NUMBER_MARK.length))] ?? '0');
  if (Array.isArray(value)) return value.map((v) => restore(v, literals));
  if (typeof value === 'object' && value !== null) {
    const out: Array<[string, unknown]> = [];
    for (const [k, v] of Object.entries(value)) out.push([k, restore(v, literals)]);
    return new OrderedObject(out);
  }
  return value;
}

/** An object with its keys in a given order (integer-like keys included, which plain objects reorder). */
class OrderedObject {
  constructor(readonly entries: Array<[string, unknown]>) {}
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof OrderedObject)
    return new OrderedObject([...value.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  if (value !== null && typeof value === 'object' && !(value instanceof NumberLiteral)) {
    return new OrderedObject(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function serialise(value: unknown, layout: Layout, escaping: Escaping, depth = 0): string {
  if (value instanceof NumberLiteral) return value.text;
  if (typeof value === 'string') return quote(value, escaping);
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (Array.isArray(value))
    return layout.write(
      value.map((v) => serialise(v, layout, escaping, depth + 1)),
      undefined,
      depth,
    );
  const entries = value instanceof OrderedObject ? value.entries : Object.entries(value as Record<string, unknown>);
  return layout.write(
    entries.map(([, v]) => serialise(v, layout, escaping, depth + 1)),
    entries.map(([k]) => quote(k, escaping)),
    depth,
  );
}

function quote(text: string, escaping: Escaping): string {
  let s = JSON.stringify(text);
  if (escaping.slashes) s = s.replace(/\//g, '\\/');
  if (escaping.unicode) s = s.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s;
}
