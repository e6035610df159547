import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '@/lib/db/client';
import { isUrlId } from '@/lib/url-id';
import { localSessionCookie } from '@/lib/testing/local-session';
import { GET as experimentJson } from '@/app/api/experiments/[id]/route';
import { GET as progress } from '@/app/api/runs/[id]/progress/route';
import { GET as exportRun } from '@/app/api/runs/[id]/export/[kind]/route';
import { POST as control } from '@/app/api/runs/[id]/control/route';
import { GET as trials } from '@/app/api/runs/[id]/trials/route';
import { GET as tcc } from '@/app/api/runs/[id]/trials/[trialId]/tcc/route';
import { generateMetadata as runMeta } from '@/app/runs/[id]/page';
import { generateMetadata as reviewMeta } from '@/app/runs/[id]/review/page';
import { generateMetadata as experimentMeta } from '@/app/experiments/[id]/page';
import { generateMetadata as versionsMeta } from '@/app/experiments/[id]/versions/page';
import { generateMetadata as trialMeta } from '@/app/runs/[id]/trials/[trialId]/page';
import { generateMetadata as pairMeta } from '@/app/runs/[id]/pairs/[baseline]/[treatment]/page';
import { generateMetadata as designerMeta } from '@/app/designer/[slug]/page';

// A NUL (or another character no id has) in a URL id is a 404 at every door that reads
// ids from its path — the route handlers and the pages — not a 500 from the database refusing the query.

afterAll(() => closeDb());

// the browser of single-user mode (the one that opened the server's link)
let cookie = '';
beforeAll(async () => {
  cookie = await localSessionCookie();
});

const BAD = ['\u0000', 'run_\u0000x', 'a\u001bb', '\uD800', 'x'.repeat(300)];
const origin = 'http://127.0.0.1:3000';
const req = (path: string, method = 'GET') =>
  new Request(`${origin}${path}`, {
    method,
    headers: { host: '127.0.0.1:3000', origin, 'content-type': 'application/json', cookie },
    body: method === 'POST' ? '{"action":"cancel"}' : undefined,
  });
const p = <T>(v: T) => ({ params: Promise.resolve(v) });

describe('ids from the URL', () => {
  it('the id check: what no stored id can hold', () => {
    for (const bad of BAD) expect(isUrlId(bad)).toBe(false);
    for (const good of ['run_0a1b2c', 'reference-study', 'trial_12', '中文-id']) expect(isUrlId(good)).toBe(true);
  });

  it('route handlers answer 404 (not 500) to an id with a NUL or a control character', async () => {
    for (const id of BAD) {
      const answers = await Promise.all([
        experimentJson(req('/api/experiments/%00'), p({ id })),
        progress(req('/api/runs/%00/progress'), p({ id })),
        exportRun(req('/api/runs/%00/export/trials'), p({ id, kind: 'trials' })),
        control(req('/api/runs/%00/control', 'POST'), p({ id })),
        trials(req('/api/runs/%00/trials'), p({ id })),
        tcc(req('/api/runs/r/trials/%00/tcc'), p({ id: 'r', trialId: id })),
      ]);
      expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    }
  });

  it('pages are not found (notFound()) for such ids', async () => {
    const notFound = { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' };
    await expect(runMeta(p({ id: '\u0000' }))).rejects.toMatchObject(notFound);
    await expect(reviewMeta(p({ id: '\u0000' }))).rejects.toMatchObject(notFound);
    await expect(experimentMeta(p({ id: '\u0000' }))).rejects.toMatchObject(notFound);
    await expect(versionsMeta(p({ id: 'exp\u0000' }))).rejects.toMatchObject(notFound);
    await expect(trialMeta(p({ id: 'r', trialId: '\u0000' }))).rejects.toMatchObject(notFound);
    await expect(pairMeta(p({ id: '\u0000', baseline: 'a', treatment: 'b' }))).rejects.toMatchObject(notFound);
    await expect(designerMeta(p({ slug: '\u0000' }))).rejects.toMatchObject(notFound);
  });
});
