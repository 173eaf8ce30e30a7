// The ids a paged listing has read (track ids of payments, payouts, addresses), to drop a row that
// came before and notice a page that repeats earlier ones, over the whole listing. The gateway's
// ids are decimal integers of nine digits: those below 2^32 are kept as numbers in a hash table of
// 4 bytes a slot, outside V8's heap (a Set of strings cost about 60 bytes an id in the old
// generation, which the garbage collector then sizes itself after: 5 MB and more at 100,000
// payments). Any other id is kept as a string, exactly.

/** The empty slot: 2^32 - 1, the one 32-bit value no id kept as a number has. */
const EMPTY = 0xffffffff;

export class SeenIds {
  #slots = new Uint32Array(1024).fill(EMPTY);
  #numbers = 0;
  #others: Set<string> | undefined;

  /** How many distinct ids were added. */
  get size(): number {
    return this.#numbers + (this.#others?.size ?? 0);
  }

  has(id: string): boolean {
    const n = numeric(id);
    if (n === undefined) return this.#others?.has(id) ?? false;
    return this.#slots[this.#find(n)] === n;
  }

  /** Adds `id`; false when it was already there. */
  add(id: string): boolean {
    const n = numeric(id);
    if (n === undefined) {
      this.#others ??= new Set();
      if (this.#others.has(id)) return false;
      this.#others.add(id);
      return true;
    }
    const at = this.#find(n);
    if (this.#slots[at] === n) return false;
    this.#slots[at] = n;
    this.#numbers++;
    // At most three quarters full, so a probe ends soon.
    if (this.#numbers * 4 > this.#slots.length * 3) this.#grow();
    return true;
  }

  /** The slot holding `n`, or the empty one where it goes (linear probing). */
  #find(n: number): number {
    const mask = this.#slots.length - 1;
    // Multiplied by 2^32 / golden ratio: consecutive ids spread over the table.
    let at = (Math.imul(n, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const slot = this.#slots[at];
      if (slot === EMPTY || slot === n) return at;
      at = (at + 1) & mask;
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2).fill(EMPTY);
    for (const n of old) if (n !== EMPTY) this.#slots[this.#find(n)] = n;
  }
}

/** The id as a number when it is a plain decimal integer below 2^32 - 1 (no sign, no leading zero, no space). */
function numeric(id: string): number | undefined {
  const length = id.length;
  if (length === 0 || length > 10 || (length > 1 && id.charCodeAt(0) === 48)) return undefined;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n < EMPTY ? n : undefined;
}

/**
 * The rows of one page not read before: not in `seen`, nor earlier on the same page (a gateway that
 * sends a row twice on one page has it taken once, as one that repeats it on a later page).
 */
export function unseenRows<T>(rows: readonly T[], idOf: (row: T) => string, seen: { has(id: string): boolean }): T[] {
  const onPage = new Set<string>();
  return rows.filter((row) => {
    const id = idOf(row);
    if (seen.has(id) || onPage.has(id)) return false;
    onPage.add(id);
    return true;
  });
}
