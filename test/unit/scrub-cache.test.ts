// scrubSecrets runs on every line gw writes (gw listen: thousands a second) with whatever key list
// it is given: a list that changes — IOStreams.secrets grows as the factory learns the keys — must
// be scrubbed with the keys it holds now, never with ones remembered from an earlier call.
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/output/sanitize.js';

describe('scrubSecrets with a changing key list', () => {
  it('uses the keys of each call, however the list changed since the last', () => {
    const secrets: string[] = [];
    const text = 'merchant Zk3LqP9xW2mVb7Rt payout Hy6NcT1sQe8UdJ4o';
    expect(scrubSecrets(text, secrets)).toBe(text);
    secrets.push('Zk3LqP9xW2mVb7Rt');
    expect(scrubSecrets(text, secrets)).toBe('merchant **** payout Hy6NcT1sQe8UdJ4o');
    secrets.push('Hy6NcT1sQe8UdJ4o');
    expect(scrubSecrets(text, secrets)).toBe('merchant **** payout ****');
    expect(scrubSecrets(text, ['Hy6NcT1sQe8UdJ4o'])).toBe('merchant Zk3LqP9xW2mVb7Rt payout ****');
    secrets.splice(0);
    expect(scrubSecrets(text, secrets)).toBe(text);
  });

  it('a global pattern reused across calls matches from the start every time', () => {
    const keys = ['Zk3LqP9xW2mVb7Rt'];
    for (let i = 0; i < 3; i++) expect(scrubSecrets('Zk3LqP9xW2mVb7Rt and Zk3LqP9xW2mVb7Rt', keys)).toBe('**** and ****');
  });
});

describe('scrubSecrets: every form a peer may echo a key in', () => {
  const KEY = 'Zk3LqP9x-W2mVb7Rt';
  it.each([
    ['literal', `a ${KEY} b`, 'a **** b'],
    ['percent-encoded, either case', 'a Zk3LqP9x%2DW2mVb7Rt b %5a%6B3LqP9x-W2mVb7Rt', 'a **** b ****'],
    ['JSON \\u escapes', 'a \\u005ak3LqP9x\\u002DW2mVb7Rt b', 'a **** b'],
    ['JS \\x escapes', 'a Zk3LqP9x\\x2dW2mVb7Rt b', 'a **** b'],
    ['\\u and \\x escapes written again inside a JSON string', 'a \\\\u005ak3LqP9x\\\\u002DW2mVb7Rt b Zk3LqP9x\\\\x2dW2mVb7Rt', 'a **** b ****'],
    ['escaped and cut short at either end', 'order %5a%6b3%4c%71%509%78-%57… and …\\u0039x-W2mVb7Rt', 'order ****… and …****'],
    ['escaped, seven characters of either end are not a key', 'order %5a%6b3%4c%71%50%39… and …%32mVb7Rt', 'order %5a%6b3%4c%71%50%39… and …%32mVb7Rt'],
    ['HTML decimal and hex references', 'a Zk3LqP9x&#45;W2mVb7Rt b Zk3LqP9x&#x2D;W2mVb7Rt &#X002d;', 'a **** b **** &#X002d;'],
    ['a key cut short at either end', 'start Zk3LqP9x-W2m… end …9x-W2mVb7Rt', 'start ****… end …****'],
    ['only its first eight characters', 'key Zk3LqP9x… and no more', 'key ****… and no more'],
    ['only its last eight characters', 'key …-W2mVb7Rt and no more', 'key …**** and no more'],
    ['seven characters of either end are not a key', 'key Zk3LqP9… and …2mVb7Rt', 'key Zk3LqP9… and …2mVb7Rt'],
    ['escapes elsewhere leave the rest alone', 'fee 1% (100%25) and the key Zk3LqP9x-W2mVb7Rt', 'fee 1% (100%25) and the key ****'],
    ['no key: unchanged, escapes included', 'nothing %41 \\u0042 &#67; here', 'nothing %41 \\u0042 &#67; here'],
    ['twice, mixed forms', `${KEY}${KEY.replace('-', '%2d')}`, '********'],
  ])('%s', (_name, text, expected) => {
    expect(scrubSecrets(text, [KEY])).toBe(expected);
  });

  it('the longer of two overlapping keys is cut whole; public test keys and short keys are not secrets', () => {
    expect(scrubSecrets('x Zk3LqP9x-W2mVb7Rt-extra y', [KEY, `${KEY}-extra`])).toBe('x **** y');
    expect(scrubSecrets('sandbox-merchant-key sandbox-general-key abc12', ['sandbox-merchant-key', 'sandbox-general-key', 'abc12'])).toBe(
      'sandbox-merchant-key sandbox-general-key abc12',
    );
  });
});
