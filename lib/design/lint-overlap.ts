// Which descriptions of one catalog are the same, or share most of their words (Jaccard similarity of their
// word sets ≥ 0.8), without comparing every pair: a set-similarity join with prefix filtering (Chaudhuri et
// al. 2006; Bayardo et al., "AllPairs", 2007). Words are ordered rarest first across the catalog; a set of n
// words that shares ≥ 0.8 of the union with another must share at least ⌈0.8·n⌉ words with it, so two such
// sets have a word in common among the first n − ⌈0.8·n⌉ + 1 of each (their "prefixes"). Only descriptions
// whose prefixes meet are compared, and the comparison is the exact one: the pairs found are those of
// comparing all pairs (lint.test.ts checks it on real catalogs), in time close to linear when most words
// are rare, as in prose.

export const OVERLAP = 0.8;

export function normalText(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The words of a normalised description: runs of ASCII letters and digits, and each CJK character. */
export function wordSet(normal: string): Set<string> {
  return new Set(normal.match(/[a-z0-9]+|[\u3400-\u9fff]/g) ?? []);
}

export type SimilarPair = { j: number; same: true } | { j: number; same: false; share: number };

// |x ∩ y| / |x ∪ y| ≥ t  ⇔  |x ∩ y| ≥ t / (1 + t) · (|x| + |y|)
const overlapNeeded = (nx: number, ny: number) => Math.ceil((OVERLAP / (1 + OVERLAP)) * (nx + ny) - 1e-6);

/**
 * For each description i, the later descriptions j > i (ascending) that are the same once case and spacing
 * are normalised, or share ≥ 80% of their words. `tick` is called often (a deadline's check).
 */
export function similarPairs(descriptions: string[], tick: () => void = () => {}): SimilarPair[][] {
  const normal = descriptions.map(normalText);
  const sets = normal.map((n) => wordSet(n));
  const df = new Map<string, number>();
  for (const s of sets) for (const w of s) df.set(w, (df.get(w) ?? 0) + 1);
  // every word's rank, rarest first; a description becomes its ranks in ascending order
  const rank = new Map([...df.keys()].sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : 1)).map((w, r) => [w, r]));
  const ranks = sets.map((s) => Int32Array.from(s, (w) => rank.get(w)!).sort());

  // prefix word → [description, position of the word in it, …] for the descriptions whose prefix holds it;
  // descriptions without words, and descriptions alike once normalised, are grouped on their own (their
  // similarity needs no shared word)
  const index = new Map<number, number[]>();
  const empty: number[] = [];
  const byText = new Map<string, number[]>();
  const prefixLength = (n: number) => n - Math.ceil(OVERLAP * n - 1e-6) + 1;
  ranks.forEach((r, i) => {
    if (i % 256 === 0) tick();
    const group = byText.get(normal[i]);
    if (group) group.push(i);
    else byText.set(normal[i], [i]);
    if (r.length === 0) empty.push(i);
    for (let p = 0; p < Math.min(r.length, prefixLength(r.length)); p++) {
      const list = index.get(r[p]);
      if (list) list.push(i, p);
      else index.set(r[p], [i, p]);
    }
  });

  const seen = new Int32Array(sets.length).fill(-1); // seen[j] === i: j was already met as a candidate of i
  return ranks.map((x, i) => {
    tick();
    const candidates: number[] = [];
    const consider = (j: number) => {
      if (j > i && seen[j] !== i) {
        seen[j] = i;
        candidates.push(j);
      }
    };
    for (const j of byText.get(normal[i])!) consider(j);
    if (x.length === 0) for (const j of empty) consider(j);
    for (let px = 0; px < Math.min(x.length, prefixLength(x.length)); px++) {
      const list = index.get(x[px])!;
      for (let k = list.length - 2; k >= 0 && list[k] > i; k -= 2) {
        const j = list[k];
        if (seen[j] === i) continue;
        // the first word two descriptions share, in rank order, is met first: at most this word and the
        // words after it in both can be shared (the positional filter of Xiao et al., "PPJoin", 2008)
        const y = ranks[j].length;
        if (1 + Math.min(x.length - px - 1, y - list[k + 1] - 1) >= overlapNeeded(x.length, y)) consider(j);
        else seen[j] = i;
      }
    }
    candidates.sort((a, b) => a - b);
    const found: SimilarPair[] = [];
    for (const j of candidates) {
      if (normal[i] === normal[j]) found.push({ j, same: true });
      else {
        const y = ranks[j];
        let both = 0;
        for (let a = 0, b = 0; a < x.length && b < y.length;) {
          if (x[a] === y[b]) {
            both++;
            a++;
            b++;
          } else if (x[a] < y[b]) a++;
          else b++;
        }
        // as |x ∩ y| / |x ∪ y| was always computed (two empty sets are alike)
        const share = x.length === 0 && y.length === 0 ? 1 : both / (x.length + y.length - both);
        if (share >= OVERLAP) found.push({ j, same: false, share });
      }
    }
    return found;
  });
}
