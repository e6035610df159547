// The loop's bounds, plain values a browser form may import too (lib/optimise/loop.ts reads the database).

/** At most this many candidates besides the placebo. */
export const MAX_CANDIDATES = 20;
