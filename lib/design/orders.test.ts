import { describe, expect, it } from 'vitest';
import { candidateOrders, orderCount, MAX_PERMUTATION_TOOLS } from './matrix';

describe('candidate orders', () => {
  it('rotations: n orders, a Latin square — each tool in each position exactly once', () => {
    for (let n = 2; n <= 20; n++) {
      const orders = candidateOrders(n, 'rotations');
      expect(orders).toHaveLength(n);
      expect(orderCount(n, 'rotations')).toBe(n);
      for (const o of orders) expect([...o].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      for (let pos = 0; pos < n; pos++) expect(new Set(orders.map((o) => o[pos])).size).toBe(n);
    }
    expect(candidateOrders(3, 'rotations')).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
    ]);
    expect(candidateOrders(1, 'rotations')).toEqual([[0]]);
  });

  it('counts every policy arithmetically, equal to the orders listed; all-permutations is refused past its size', () => {
    for (const policy of ['fixed', 'reverse-swap', 'rotations', 'all-permutations'] as const)
      for (let n = 1; n <= MAX_PERMUTATION_TOOLS; n++) expect(orderCount(n, policy), `${policy}/${n}`).toBe(candidateOrders(n, policy).length);
    expect(orderCount(7, 'all-permutations')).toBe(5040);
    expect(() => candidateOrders(7, 'all-permutations')).toThrow(/5040 orders.*at most 6 tools.*use rotations/);
  });
});
