import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { text } from 'node:stream/consumers';
import { junitXml, linkFree, type JunitTrial } from './junit';

async function* from(xs: JunitTrial[]) {
  yield* xs;
}

const base = { study: 's', scenario: 'shop', locale: 'en', caseId: 'c1', condition: 'v1', orderIndex: 0, replicate: 1 };

describe('junitXml', () => {
  it('one test case per trial: failures with categories, unresolved as errors, untested skipped; hostile text escaped, links removed', async () => {
    const trials: JunitTrial[] = [
      { ...base, id: 't1', status: 'passed', verdicts: [] },
      {
        ...base,
        id: 't2',
        status: 'failed',
        verdicts: [{ checkId: 'tool-choice', status: 'fail', category: 'unwanted_write', reason: 'wrote <b>"&</b> see https://evil.example/x \u0007' }],
      },
      { ...base, id: 't3', status: 'unresolved', verdicts: [] },
      { ...base, id: 't4', study: 'u', status: 'untested', verdicts: [] },
    ];
    const xml = await text(
      junitXml(
        'run r1',
        [
          { study: 's', tests: 3, failures: 1, errors: 1, skipped: 0 },
          { study: 'u', tests: 1, failures: 0, errors: 0, skipped: 1 },
        ],
        from(trials),
      ),
    );
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(doc.testsuites).toMatchObject({ tests: '4', failures: '1', errors: '1', skipped: '1' });
    const [s, u] = doc.testsuites.testsuite;
    expect(s.testcase).toHaveLength(3);
    // named as every page names the trial: the order from 1
    expect(s.testcase[0].name).toBe('c1 o1 / r1');
    expect(s.testcase[1].failure).toMatchObject({ message: 'unwanted_write: tool-choice', type: 'unwanted_write' });
    expect(s.testcase[1].failure['#text']).toContain('wrote <b>"&</b> see [link removed]');
    expect(xml).not.toContain('https://');
    expect(s.testcase[2].error.type).toBe('unresolved');
    expect(u.testcase.skipped.message).toMatch(/^untested/);
  });

  it('linkFree removes URLs of any scheme', () => {
    expect(linkFree('a http://x.y/z b HTTPS://q javascript:alert(1) www.example.com/p')).toBe('a [link removed] b [link removed] [link removed] [link removed]');
  });
});
