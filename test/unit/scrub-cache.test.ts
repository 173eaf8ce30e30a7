// scrubSecrets compiles its pattern once per key list (gw listen prints thousands of lines a
// second): a list that changes — IOStreams.secrets grows as the factory learns the keys — must
// still be scrubbed with the keys it holds now, never with a stale pattern.
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
