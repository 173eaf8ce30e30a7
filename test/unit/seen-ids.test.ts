// The ids a paged listing has read (src/gateway/seen-ids.ts): exact, whatever the ids look like,
// and over the whole listing, not a window of it.
import { describe, expect, it } from 'vitest';
import { SeenIds } from '../../src/gateway/seen-ids.js';

describe('SeenIds', () => {
  it('says whether an id was added, once each', () => {
    const ids = new SeenIds();
    expect(ids.has('184729305')).toBe(false);
    expect(ids.add('184729305')).toBe(true);
    expect(ids.add('184729305')).toBe(false);
    expect(ids.has('184729305')).toBe(true);
    expect(ids.has('184729306')).toBe(false);
    expect(ids.size).toBe(1);
  });

  it('ids that are the same number but not the same text are different ids', () => {
    const ids = new SeenIds();
    for (const id of ['7', '07', '7.0', ' 7', '7 ', '+7', '-7', '0', '00', '']) expect(ids.add(id)).toBe(true);
    expect(ids.size).toBe(10);
    for (const id of ['7', '07', '7.0', ' 7', '7 ', '+7', '-7', '0', '00', '']) expect(ids.has(id)).toBe(true);
    expect(ids.has('007')).toBe(false);
    expect(ids.has('70')).toBe(false);
  });

  it('long ids (past 2^32, past what a number holds exactly) and other text, exactly', () => {
    const ids = new SeenIds();
    ids.add('9007199254740993'); // 2^53 + 1: as a number it would be 2^53
    expect(ids.has('9007199254740992')).toBe(false);
    expect(ids.has('9007199254740993')).toBe(true);
    ids.add('999999999999999');
    expect(ids.has('999999999999998')).toBe(false);
    // Around 2^32 - 1, the largest id kept as a number and the first kept as text.
    for (const id of ['4294967294', '4294967295', '4294967296']) expect(ids.add(id)).toBe(true);
    for (const id of ['4294967294', '4294967295', '4294967296']) expect(ids.has(id)).toBe(true);
    expect(ids.has('4294967293')).toBe(false);
    ids.add('a1b2c3');
    expect(ids.has('a1b2c3')).toBe(true);
    expect(ids.has('A1B2C3')).toBe(false);
  });

  it('every id of a long listing, from its first page to its last', () => {
    const ids = new SeenIds();
    const n = 100_000;
    let added = 0;
    for (let i = 0; i < n; i++) if (ids.add(String(100_000_000 + i * 7))) added++;
    expect(added).toBe(n);
    expect(ids.size).toBe(n);
    let found = 0;
    let strangers = 0;
    for (let i = 0; i < n; i++) {
      if (ids.has(String(100_000_000 + i * 7))) found++;
      if (ids.has(String(100_000_000 + i * 7 + 1))) strangers++;
    }
    expect({ found, strangers }).toEqual({ found: n, strangers: 0 });
    expect(ids.add('100000000')).toBe(false);
  });
});
