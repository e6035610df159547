// Near-duplicate look-up for the trace import (docs/traces.md › Near-duplicates): the group heads of one catalog,
// and for a new text the first head (oldest first) at least `similarity` alike (1 − Levenshtein distance /
// longer length). Comparing every text with every head costs a Levenshtein distance per head — 2,000 heads and a
// 300 MB log of distinct requests would take most of an hour — so the heads are indexed by their character
// trigrams, and only a head that shares enough trigrams to be that close is measured: if the edit distance of a
// and b is at most k, they share at least max(|a|, |b|) − 2 − 3k trigrams (the q-gram lemma, Ukkonen 1992, q = 3).
// The filter drops no head the distance would accept, so the groups are the ones a comparison with every head
// makes (near.test.ts holds both to the same answers).
import { distance } from 'fastest-levenshtein';

const Q = 3;

interface Head {
  seq: number;
  hash: string;
  text: string;
}

function gramsOf(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + Q <= text.length; i++) {
    const g = text.slice(i, i + Q);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/** First index of `xs` (ascending) holding a value ≥ `x`. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The heads of one catalog: at most `capacity`, the oldest let go first. Heads are numbered in the order they
 * came; a head let go is the lowest number still kept, so each trigram's posting list (ascending numbers) is
 * skipped up to the oldest kept and trimmed now and then, and the shared counts live in one typed array.
 */
export class NearDuplicateIndex {
  private heads: Head[] = [];
  private readonly postings = new Map<string, { seqs: number[]; counts: number[] }>();
  private readonly shared: Uint32Array;
  private seq = 0;

  constructor(
    private readonly similarity: number,
    private readonly capacity: number,
  ) {
    this.shared = new Uint32Array(capacity + 1);
  }

  get size(): number {
    return this.heads.length;
  }

  private get oldest(): number {
    return this.heads.length > 0 ? this.heads[0].seq : this.seq;
  }

  /** The hash of the oldest head at least `similarity` alike to `text`, or null. */
  find(text: string): string | null {
    if (this.heads.length === 0) return null;
    const oldest = this.oldest;
    const shared = this.shared;
    shared.fill(0);
    for (const [g, n] of gramsOf(text)) {
      const posting = this.postings.get(g);
      if (!posting) continue;
      const { seqs, counts } = posting;
      for (let i = lowerBound(seqs, oldest); i < seqs.length; i++) shared[seqs[i] - oldest] += Math.min(n, counts[i]);
    }
    // heads in the order they came: the first one close enough is the group
    for (const h of this.heads) {
      const longest = Math.max(h.text.length, text.length);
      if (longest === 0) return h.hash;
      const k = Math.floor((1 - this.similarity) * longest + 1e-6); // a hair generous: the distance decides
      if (Math.abs(h.text.length - text.length) > k) continue;
      if (shared[h.seq - oldest] < longest - (Q - 1) - Q * k) continue;
      if (1 - distance(h.text, text) / longest >= this.similarity) return h.hash;
    }
    return null;
  }

  /** A new head (the oldest one let go when the index is full). */
  add(hash: string, text: string): void {
    const head: Head = { seq: this.seq++, hash, text };
    this.heads.push(head);
    for (const [g, n] of gramsOf(text)) {
      let posting = this.postings.get(g);
      if (!posting) this.postings.set(g, (posting = { seqs: [], counts: [] }));
      posting.seqs.push(head.seq);
      posting.counts.push(n);
    }
    if (this.heads.length > this.capacity) {
      const gone = this.heads.shift()!;
      // trim the posting lists of the head let go; the lists of its trigrams drop every number below the oldest kept
      const oldest = this.oldest;
      for (const g of gramsOf(gone.text).keys()) {
        const posting = this.postings.get(g)!;
        const cut = lowerBound(posting.seqs, oldest);
        if (cut === posting.seqs.length) this.postings.delete(g);
        else if (cut > 0) {
          posting.seqs.splice(0, cut);
          posting.counts.splice(0, cut);
        }
      }
    }
  }
}
