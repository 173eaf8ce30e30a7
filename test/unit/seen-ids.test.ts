// The ids a paged listing has read (src/gateway/seen-ids.ts): exact, whatever the ids look like,
// and over the whole listing, not a window of it.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../support/random.js';
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

const generator = mulberry32;

/** Ids of every shape a listing may meet, from a small pool so that many repeat. */
function anId(random: () => number, pool: readonly string[]): string {
  const r = random();
  if (r < 0.5) return pool[Math.floor(random() * pool.length)] ?? '';
  const n = Math.floor(random() * 0x1_0000_0000);
  const shapes = [
    () => String(n), // any 32-bit value, 2^32 - 1 included
    () => String(100_000_000 + (n % 900_000_000)), // the gateway's nine digits
    () => `0${n % 1000}`, // a leading zero: "07" is not "7"
    () => String(n % 64), // small numbers, crowded in the table
    () => String(n * 1024), // multiples of the table's size
    () => `${n}${n % 100_000}`, // past 2^32, as text
    () => String(4_294_967_290 + (n % 12)), // around 2^32 - 1
    () => ['', ' 1', '1 ', '+1', '-1', '1.0', '1e3', 'abc', '٣', '１'][n % 10] ?? '', // not plain decimal digits
  ];
  return shapes[Math.floor(random() * shapes.length)]?.() ?? '';
}

describe('SeenIds against a Set of strings', () => {
  it.each([1, 2, 3, 4, 5])('the same answers to add, has and size for 40,000 random operations (seed %i)', (seed) => {
    const random = generator(seed);
    const pool: string[] = [];
    const ids = new SeenIds();
    const set = new Set<string>();
    const wrong: string[] = [];
    for (let i = 0; i < 40_000; i++) {
      const id = anId(random, pool);
      if (pool.length < 5_000) pool.push(id);
      if (random() < 0.5) {
        const expected = !set.has(id);
        set.add(id);
        if (ids.add(id) !== expected) wrong.push(`add(${JSON.stringify(id)})`);
      } else if (ids.has(id) !== set.has(id)) {
        wrong.push(`has(${JSON.stringify(id)})`);
      }
      if (ids.size !== set.size) wrong.push(`size after ${JSON.stringify(id)}`);
      if (wrong.length > 0) break;
    }
    expect(wrong).toEqual([]);
    // Everything added is still there after the table grew, and nothing else.
    for (const id of set) if (!ids.has(id)) wrong.push(`lost ${JSON.stringify(id)}`);
    for (const id of ['7', '07', '007', '4294967295', '4294967296', '']) if (ids.has(id) !== set.has(id)) wrong.push(`has(${JSON.stringify(id)}) at the end`);
    expect(wrong).toEqual([]);
  });
});
