import { describe, expect, it } from 'vitest';
import { loopbackEngine } from '../testing/loopback-engine';
import { runToCompletion } from '../testing/engine';
import { runJsonStream } from './export';
import { runReport } from './report';
import type { RunSummary } from '../schema/table1';

// The one-file report of a run whose model answers carry markup and a spreadsheet formula: every figure of
// Table 1 equals the JSON export's, nothing the model said is live markup, and the file names no resource.

const ANSWER = '<script>window.pwned = 1</script><img src=x onerror="alert(1)"> =HYPERLINK("http://evil.example/","x")';
const engine = loopbackEngine({
  key: 'sk-test-report-0000',
  env: (server) => ({ TCLAB_ALLOWED_BASE_URLS: server.url }),
  settings: { concurrency: 16 },
  server: { script: () => ({ kind: 'text', text: ANSWER }) },
});

async function json(runId: string): Promise<{ summary: RunSummary }> {
  const chunks: Buffer[] = [];
  for await (const c of await runJsonStream(runId)) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { summary: RunSummary };
}

describe('the one-file report', () => {
  it('holds Table 1 as the JSON export has it, quotes the model as text, and loads nothing', async () => {
    const runId = await runToCompletion(engine.experimentId, engine.settings());
    const html = await runReport([runId], new Date('2026-12-04T00:00:00Z'));
    const { summary } = await json(runId);

    for (const s of summary.studies) {
      const total = new RegExp(`data-figure="${s.study}\\|total" data-baseline="(\\d+)/(\\d+)" data-treatment="(\\d+)/(\\d+)"`).exec(html);
      expect(total?.slice(1).map(Number), s.study).toEqual([s.total.baseline.pass, s.total.baseline.n, s.total.treatment.pass, s.total.treatment.n]);
      for (const r of s.rows)
        expect(html).toContain(
          `data-figure="${s.study}|${r.scenario} / ${r.locale}" data-baseline="${r.baseline.pass}/${r.baseline.n}" data-treatment="${r.treatment.pass}/${r.treatment.n}"`,
        );
      expect(html).toContain(`<td data-pairs="${s.study}">${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}`);
    }
    // the model's answer is quoted, as text
    expect(html).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt; =HYPERLINK(&quot;http://evil.example/&quot;');
    expect(html).not.toMatch(/<script|<img|<iframe|<link|<object|<embed/i);
    expect(html).not.toMatch(/<[^>]*\s(src|href|action|srcset|on[a-z]+)=/i); // no attribute of a real tag loads or runs anything (the model's " src=" is escaped text)
    expect(html).not.toMatch(/url\(/i);
    expect(Buffer.byteLength(html)).toBeLessThan(3 * 1024 * 1024);
    expect(html).toContain('Content-Security-Policy');
  });
});
