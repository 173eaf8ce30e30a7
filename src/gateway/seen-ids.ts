// The ids a paged listing has read (track ids of payments, payouts, addresses), to drop a row that
// came before and notice a page that repeats earlier ones, over the whole listing. The gateway's
// ids are decimal integers: those are kept as numbers in a hash table of 8 bytes a slot, outside
// V8's heap (a Set of strings cost about 60 bytes an id in the old generation, which the garbage
// collector then sizes itself after: 5 MB and more at 100,000 payments). Any other id is kept as a
// string, exactly.

/** The largest id kept as a number: 15 digits are below 2^53, so each is exact. */
const MAX_DIGITS = 15;
const EMPTY = -1;

export class SeenIds {
  #slots = new Float64Array(1024).fill(EMPTY);
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
    // At most half full, so a probe ends soon.
    if (this.#numbers * 2 > this.#slots.length) this.#grow();
    return true;
  }

  /** The slot holding `n`, or the empty one where it goes (linear probing). */
  #find(n: number): number {
    const mask = this.#slots.length - 1;
    // The low and high 32 bits mixed: consecutive ids spread over the table.
    let at = (Math.imul((n >>> 0) ^ Math.floor(n / 4294967296), 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const slot = this.#slots[at];
      if (slot === EMPTY || slot === n) return at;
      at = (at + 1) & mask;
    }
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Float64Array(old.length * 2).fill(EMPTY);
    for (const n of old) if (n !== EMPTY) this.#slots[this.#find(n)] = n;
  }
}

/** The id as a number when it is a plain decimal integer (no sign, no leading zero, no space) that a number holds exactly. */
function numeric(id: string): number | undefined {
  const length = id.length;
  if (length === 0 || length > MAX_DIGITS || (length > 1 && id.charCodeAt(0) === 48)) return undefined;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n;
}
