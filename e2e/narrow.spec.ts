import { mkdir } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';

// Every page at a 390 × 844 phone viewport: none is wider than the screen (wide
// tables scroll inside their own box, the header wraps, forms stack). And no page of a finished run (run,
// review, pair, compare) prints a zero-width interval: where there is nothing to estimate, "—" and why.
// Seeds what it needs: the reference study run with two simulated models at once (two runs and their
// compare page), a draft in the designer. Screenshots of every page at 1440 px go to test-results/narrow/
// for a look (they assert nothing).

const NARROW = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };

/** `[50.0%, 50.0%]`, `[+0.0 pts, +0.0 pts]`, `[0.00, 0.00]`: an interval whose bounds read the same. */
const ZERO_WIDTH = /\[([^\s,\]]+(?: pts)?), \1\]/;

async function width(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** What is wider than the screen (for the failure message): the deepest elements sticking out that no scroll box holds. */
async function culprits(page: Page): Promise<string[]> {
  return page.evaluate((w) => {
    const held = (el: Element) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
      return false;
    };
    const out = Array.from(document.querySelectorAll('body *')).filter((el) => el.getBoundingClientRect().right > w + 1 && !held(el));
    const deepest = out.filter((el) => !out.some((o) => o !== el && el.contains(o)));
    return deepest
      .slice(0, 8)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className ? '.' + el.className.split(' ').join('.') : ''} right=${Math.round(el.getBoundingClientRect().right)}`,
      );
  }, NARROW.width);
}

test('every page fits a 390 px screen; no zero-width interval anywhere', async ({ page }) => {
  test.setTimeout(420_000);
  // seed: the reference study with both simulated models (two runs of one version, and their compare page)
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  const experimentUrl = new URL(page.url()).pathname;
  await page.getByTestId('also-run-with').locator('input[value="simulated:simulated-position-biased-v1"]').check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/compare\?ids=/);
  const compareUrl = new URL(page.url()).pathname + new URL(page.url()).search;
  const ids = decodeURIComponent(new URL(page.url()).searchParams.get('ids') ?? '').split(',');
  expect(ids).toHaveLength(2);
  const runUrl = `/runs/${encodeURIComponent(ids[0])}`;
  await page.goto(runUrl);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 200_000 });
  await expect(async () => {
    await page.goto(compareUrl);
    await expect(page.getByTestId('compared-run-status')).toHaveText(['completed', 'completed'], { timeout: 1000 });
  }).toPass({ timeout: 200_000 });

  await page.goto(runUrl);
  const trialUrl = await page.getByTestId('trial-link').first().getAttribute('href');
  await page.goto(`${runUrl}/review`);
  const pairUrl = await page.getByTestId('review-pairs').getByRole('link', { name: 'side by side' }).first().getAttribute('href');

  // a draft in the designer, from the reference study (its widest content)
  // (from the experiment page: other specs may have stored later versions of the template, and the home page
  // lists each experiment once, at its latest version)
  await page.goto(experimentUrl);
  await page.getByRole('button', { name: 'Edit in designer' }).click();
  await page.waitForURL(/\/designer\//);
  const designerUrl = new URL(page.url()).pathname;

  const pages: [string, string][] = [
    ['home (experiments, new experiment)', '/'],
    ['experiment', experimentUrl],
    ['versions', `${experimentUrl}/versions`],
    ['improve', `${experimentUrl}/improve`],
    ['designer', designerUrl],
    ['runs', '/runs'],
    ['run (with its audit)', runUrl],
    ['trial', trialUrl!],
    ['review', `${runUrl}/review`],
    ['pair', pairUrl!],
    ['compare', compareUrl],
    ['users (admin)', '/admin/users'],
    ['sign-in', '/sign-in'],
    ['setup', '/setup'],
    ['not found', '/experiments/no-such-experiment'],
  ];

  await mkdir('test-results/narrow', { recursive: true });
  await page.setViewportSize(WIDE);
  for (const [name, url] of pages) {
    await page.goto(url);
    await page.screenshot({ path: `test-results/narrow/${name.split(' ')[0]}-1440.png`, fullPage: true });
  }

  await page.setViewportSize(NARROW);
  const tooWide: string[] = [];
  for (const [name, url] of pages) {
    const res = await page.goto(url);
    expect(res?.status(), `${name} (${url})`).toBeLessThan(500);
    await expect(page.locator('main')).toBeVisible();
    await page.screenshot({ path: `test-results/narrow/${name.split(' ')[0]}-390.png`, fullPage: true });
    const w = await width(page);
    if (w > NARROW.width) tooWide.push(`${name} (${url}): ${w} px — ${(await culprits(page)).join(', ')}`);
    // the header wraps rather than being clipped: every link of it is on the screen
    for (const link of await page.locator('header a').all()) {
      const box = await link.boundingBox();
      expect(box && box.x + box.width <= NARROW.width, `${name}: header link inside the screen`).toBe(true);
    }
  }
  expect(tooWide, 'pages wider than 390 px').toEqual([]);

  // no zero-width interval on the pages of a finished run: the text, and every interval's bounds
  for (const url of [runUrl, `${runUrl}/review`, pairUrl!, compareUrl, `/runs/${encodeURIComponent(ids[1])}`]) {
    await page.goto(url);
    const text = await page.locator('main').evaluate((m) => m.textContent ?? '');
    if (url === runUrl || url === compareUrl) expect(text, url).toMatch(/\d+\.\d% \[\d+\.\d%, \d+\.\d%\]/);
    expect(text.match(ZERO_WIDTH)?.[0] ?? null, `${url}: a zero-width interval`).toBeNull();
    expect(text, url).not.toMatch(/SE 0\.000|\b1 clusters\b|\b0 df\b/);
  }
  // the reference study has rows where a side passes every trial: there, CR1 is "—" with the reason on hover
  await page.goto(runUrl);
  const dash = page.getByTestId('table1').locator('abbr.no-ci').first();
  await expect(dash).toHaveAttribute('title', /^no interval: /);
});
