import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cohensKappa, cohensKappa2x2 } from './kappa';

describe('cohensKappa', () => {
  it('a 2×2 table by hand', () => {
    // grader × reviewer: pass/pass 20, pass/fail 5, fail/pass 10, fail/fail 15; n = 50
    // p11 .4, p12 .1, p21 .2, p22 .3; grader margins .5/.5, reviewer margins .6/.4
    // p_o = .7, p_e = .5·.6 + .5·.4 = .5, κ = (.7 − .5)/.5 = .4, 1 − κ = .6
    // Σ_i p_ii (1 − (p_i. + p_.i)·.6)² = .4·(1 − 1.1·.6)² + .3·(1 − .9·.6)² = .4·.1156 + .3·.2116 = .10972
    // .6² · Σ_{i≠j} p_ij (p_.i + p_j.)² = .36 · (.1·(.6 + .5)² + .2·(.4 + .5)²) = .36 · (.121 + .162) = .10188
    // (κ − p_e (1 − κ))² = (.4 − .3)² = .01
    // Var = (.10972 + .10188 − .01) / (50 · .25) = .2016 / 12.5 = .016128; SE = .126996
    // 95%: .4 ± 1.96 · .126996 = .4 ± .248912 → [.151088, .648912]
    const r = cohensKappa2x2(20, 5, 10, 15);
    expect(r.agreement).toBeCloseTo(0.7, 12);
    expect(r.chance).toBeCloseTo(0.5, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
    expect(r.se!).toBeCloseTo(Math.sqrt(0.016128), 10);
    expect(r.ci95![0]).toBeCloseTo(0.151088, 5);
    expect(r.ci95![1]).toBeCloseTo(0.648912, 5);
    expect(r.n).toBe(50);
  });

  it('perfect agreement on both categories: κ = 1 with SE 0, and no zero-width interval', () => {
    // p_o = 1, p_e = .5² + .5² = .5, κ = 1; every term of the variance is 0
    const r = cohensKappa2x2(5, 0, 0, 5);
    expect(r.kappa).toBe(1);
    expect(r.se!).toBeCloseTo(0, 12);
    expect(r.ci95).toBeNull();
    expect(r.reason).toMatch(/SE is 0/);
  });

  it('one reader constant: κ is not estimated (it would be 0 [0, 0] whatever the other reader did)', () => {
    // one check, grader fail → reviewer pass: grader margins (0, 1), reviewer (1, 0): p_o = 0, p_e = 0 → κ = 0, SE 0
    const one = cohensKappa2x2(0, 0, 1, 0, ['grader', 'reviewer']);
    expect(one).toMatchObject({ kappa: null, se: null, ci95: null, agreement: 0, n: 1 });
    expect(one.reason).toBe('both readers gave every item the same reading: κ needs variance in both readers');
    // the grader failed all four, the reviewer split 2/2
    const r = cohensKappa2x2(0, 0, 2, 2, ['grader', 'reviewer']);
    expect(r.kappa).toBeNull();
    expect(r.reason).toMatch(/^grader gave every item the same reading/);
    expect(cohensKappa2x2(2, 0, 2, 0, ['grader', 'reviewer']).reason).toMatch(/^reviewer gave/);
  });

  it('agreement no better than chance: κ = 0', () => {
    // 10/10/10/10: p_o = .5, p_e = .5 → κ = 0
    expect(cohensKappa2x2(10, 10, 10, 10).kappa).toBeCloseTo(0, 12);
  });

  it('one category only (every check read pass by both): κ undefined, agreement 1', () => {
    expect(cohensKappa2x2(7, 0, 0, 0)).toEqual({ kappa: null, se: null, ci95: null, reason: expect.stringMatching(/^both readers/), agreement: 1, chance: 1, n: 7 });
    expect(cohensKappa2x2(0, 0, 0, 0)).toEqual({ kappa: null, se: null, ci95: null, reason: 'no readings', agreement: null, chance: null, n: 0 });
  });

  it('a 3×3 table (Fleiss 1981 style) by hand', () => {
    // [[10, 2, 0], [1, 8, 1], [0, 2, 6]]: n = 30, p_o = 24/30 = .8; rows 12, 10, 8; columns 11, 12, 7
    // p_e = (12·11 + 10·12 + 8·7) / 900 = (132 + 120 + 56)/900 = 308/900; κ = (.8 − 308/900) / (1 − 308/900) = (720 − 308)/(900 − 308) = 412/592
    expect(
      cohensKappa([
        [10, 2, 0],
        [1, 8, 1],
        [0, 2, 6],
      ]).kappa,
    ).toBeCloseTo(412 / 592, 12);
  });

  it('rejects non-square tables and bad counts', () => {
    expect(() => cohensKappa([[1, 2]])).toThrow(RangeError);
    expect(() =>
      cohensKappa([
        [1, -1],
        [0, 0],
      ]),
    ).toThrow(RangeError);
  });

  it('property: κ ≤ 1, symmetric in the raters, interval contains κ', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50), (a, b, c, d) => {
        const r = cohensKappa2x2(a, b, c, d);
        const s = cohensKappa2x2(a, c, b, d);
        if (r.kappa === null) {
          expect(s.kappa).toBeNull();
          return;
        }
        expect(r.kappa).toBeLessThanOrEqual(1 + 1e-12);
        expect(s.kappa!).toBeCloseTo(r.kappa, 12);
        expect(s.se!).toBeCloseTo(r.se!, 12);
        if (r.ci95 === null) {
          expect(r.reason).toEqual(expect.any(String));
          return;
        }
        expect(r.ci95[0]).toBeLessThanOrEqual(r.kappa + 1e-12);
        expect(r.ci95[1]).toBeGreaterThanOrEqual(r.kappa - 1e-12);
        expect(r.ci95[1]).toBeGreaterThan(r.ci95[0]);
      }),
    );
  });
});
