// The set of conversations an import has already seen (docs/traces.md › Duplicates), at 16 bytes a slot. A
// `Set` of the SHA-256 hex strings costs about 100 bytes an entry — 25 MB for the quarter of a million distinct
// requests of a 300 MB log, most of what the import held — and a Bloom filter would drop a distinct request as a
// duplicate now and then, which the report would then book as something it was not. This keeps the first 128 bits
// of each hash exactly (open addressing, linear probing, doubled at half full): two distinct conversations are
// taken for one only if their hashes share 128 bits.

const WORDS = 4; // 4 × 32 bits of the hash per slot

export class FingerprintSet {
  private slots = new Uint32Array(WORDS * 1024);
  private used = 0;
  /** The all-zero fingerprint marks an empty slot: the (one in 2¹²⁸) hash whose first 128 bits are zero is kept here. */
  private zeroTaken = false;

  get size(): number {
    return this.used;
  }

  /** Adds a SHA-256 hex digest (at least 32 hex digits); false when it was already there. */
  add(hex: string): boolean {
    if (!/^[0-9a-f]{32}/i.test(hex)) throw new Error(`not a hex digest: ${hex.slice(0, 40)}`);
    const a = parseInt(hex.slice(0, 8), 16) >>> 0;
    const b = parseInt(hex.slice(8, 16), 16) >>> 0;
    const c = parseInt(hex.slice(16, 24), 16) >>> 0;
    const d = parseInt(hex.slice(24, 32), 16) >>> 0;
    let added: boolean;
    if ((a | b | c | d) === 0) {
      added = !this.zeroTaken;
      this.zeroTaken = true;
    } else added = place(this.slots, a, b, c, d);
    if (!added) return false;
    this.used++;
    if (this.used * 2 > this.slots.length / WORDS) {
      const old = this.slots;
      this.slots = new Uint32Array(old.length * 2);
      for (let i = 0; i < old.length; i += WORDS)
        if ((old[i] | old[i + 1] | old[i + 2] | old[i + 3]) !== 0) place(this.slots, old[i], old[i + 1], old[i + 2], old[i + 3]);
    }
    return true;
  }
}

/** Puts a non-zero fingerprint in its slot; false when it is already there. */
function place(slots: Uint32Array, a: number, b: number, c: number, d: number): boolean {
  const mask = slots.length / WORDS - 1;
  for (let i = (a ^ Math.imul(d, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
    const at = i * WORDS;
    if ((slots[at] | slots[at + 1] | slots[at + 2] | slots[at + 3]) === 0) {
      slots[at] = a;
      slots[at + 1] = b;
      slots[at + 2] = c;
      slots[at + 3] = d;
      return true;
    }
    if (slots[at] === a && slots[at + 1] === b && slots[at + 2] === c && slots[at + 3] === d) return false;
  }
}
