import { createHash } from 'node:crypto';

/**
 * Crowding (docs/discovery.md): with many plausible candidates a simulated model's lexical choice gets noisier,
 * as a language model's does past a few dozen tools (Anthropic: selection "degrades significantly" past
 * 30–50). It reads only the tools it was sent — never a condition id, never which tool is expected.
 *
 * - plausible: a tool whose lexical score is > 0 and at least PLAUSIBLE_SHARE of the best score;
 * - m = plausible tools beyond the first CROWD_FREE (two or three hand-written tools are never crowded, so the
 *   built-in templates without catalogs answer exactly as before);
 * - the lexical pick is replaced with probability p = CROWD_RATE · m / (m + CROWD_HALF) by another plausible
 *   tool (p → CROWD_RATE as the catalog grows; half of it at m = CROWD_HALF);
 * - the draw is seeded by the request itself: u = sha256(task, the names sent in order) read as a number in
 *   [0, 1), so the same request gets the same answer, and a different catalog a different draw.
 */
export const PLAUSIBLE_SHARE = 0.5;
export const CROWD_FREE = 3;
export const CROWD_RATE = 0.6;
export const CROWD_HALF = 8;

export interface Crowding {
  plausible: string[];
  p: number;
  u: number;
  /** The tool chosen instead of the lexical pick, or null when the draw kept it. */
  swappedTo: string | null;
}

function unit(text: string, salt: string): number {
  const h = createHash('sha256').update(`${salt}\n${text}`).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

/** Whether (and to what) crowding moves the pick `winner` among `scores` (in the order sent). */
export function crowd(task: string, scores: readonly { name: string; score: number }[], winner: string): Crowding {
  const best = Math.max(0, ...scores.map((s) => s.score));
  const plausible = best > 0 ? scores.filter((s) => s.score > 0 && s.score >= PLAUSIBLE_SHARE * best).map((s) => s.name) : [];
  const m = Math.max(0, plausible.length - CROWD_FREE);
  const p = m === 0 ? 0 : (CROWD_RATE * m) / (m + CROWD_HALF);
  const key = `${task}\n${scores.map((s) => s.name).join('\n')}`;
  const u = unit(key, 'crowd');
  const others = plausible.filter((n) => n !== winner);
  const swappedTo = u < p && others.length > 0 ? others[Math.floor(unit(key, 'which') * others.length)] : null;
  return { plausible, p: Math.round(p * 1e6) / 1e6, u: Math.round(u * 1e6) / 1e6, swappedTo };
}
