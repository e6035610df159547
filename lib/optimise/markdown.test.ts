import { describe, expect, it } from 'vitest';
import { optimisationRecord } from '../testing/optimisation-record';
import { recordMarkdown } from './markdown';

// The record as Markdown: its numbers as the record holds them, and tool text that cannot break the tables.

const record = optimisationRecord;

describe('recordMarkdown', () => {
  it('holds the seal, the ranking with the winner, the confirmation and transfer', () => {
    const md = recordMarkdown(record);
    expect(md).toContain('sealed: 3 cases, `sha256:abc`');
    expect(md).toContain(
      '| 1 | fix\\|pipe **(winner)** | rule:restates-name | +25.0 pts [+5.0 pts, +45.0 pts] | 5 / 0 | 0.063 | beats it | 2 pairs: search\\|orders → get_order ×2 (c1) | 412 in / 18 out tokens · USD 0.93 per 1,000 requests |',
    );
    expect(md).toContain('| 2 | pad | placebo | +0.0 pts (no interval: one case) | 0 / 0 | 1.000 | — | — | — |');
    expect(md).toContain('The baseline `base`, per request: 380 in / 18 out tokens · USD 0.85 per 1,000 requests.');
    expect(md).toContain(
      '- **fix\\|pipe: confirmed: +50.0 pp** — 7 improved / 0 regressed, +50.0 pts [+20.0 pts, +80.0 pts], exact p 0.016, Holm-adjusted p 0.016 over 1 claim',
    );
    expect(md).toContain('| `simulated:b` | +0.0 pts (no interval: one case) |');
    // every table row has as many cells as its header
    for (const line of md.split('\n').filter((l) => l.startsWith('| ')))
      expect(line.replace(/\\\|/g, '').split('|').length, line).toBe(line.includes('Target') || line.includes('`simulated') || line.startsWith('| --- | --- |') ? 4 : 11);
  });
  it('a catalog study adds the funnel column; a record without one has none', () => {
    expect(recordMarkdown(record)).not.toContain('Funnel');
    const withFunnel = structuredClone(record);
    withFunnel.result!.select!.ranked[0].sideEffects!.funnel = [
      {
        discovery: 'all',
        catalogSize: 32,
        visible: { improved: 2, same: 4, regressed: 0, pExact: 0.5 },
        chosen: { improved: 1, same: 3, regressed: 0, pExact: 1 },
        reading: 'no shift shown at either stage',
      },
    ];
    const md = recordMarkdown(withFunnel);
    expect(md).toContain('| Per request | Funnel (found, chosen once found) |');
    expect(md).toContain('| all, N = 32: no shift shown at either stage — found 2 ↑ / 0 ↓ of 6, chosen 1 ↑ / 0 ↓ of 4 |');
    const ranking = md.split('\n').filter((l) => l.startsWith('| 1 |') || l.startsWith('| 2 |') || l.startsWith('| Rank') || l.startsWith('| ---:'));
    expect(ranking).toHaveLength(4);
    for (const line of ranking) expect(line.replace(/\\\|/g, '').split('|').length, line).toBe(12);
  });
});
