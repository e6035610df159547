import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// The app as `npm start` serves it on a laptop: loopback only, no sign-in (single-user mode, said so in the
// header), security headers on every response, pages that hydrate under the content security policy, and
// cross-site requests refused.

/** The local addresses listening on `port` (from the kernel's socket tables). */
function listening(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 4 || f[3] !== '0A') continue; // LISTEN
      const [addr, p] = f[1].split(':');
      if (p === hexPort) out.push(addr);
    }
  }
  return out;
}

test('listens on 127.0.0.1 only, and needs no sign-in there', async ({ page, baseURL }) => {
  const port = Number(new URL(baseURL!).port);
  expect(listening(port)).toEqual(['0100007F']); // 127.0.0.1, and no IPv6 or wildcard socket
  await page.goto('/');
  await expect(page.getByTestId('who')).toHaveText('single-user mode');
  await page.goto('/sign-in');
  await expect(page.locator('main')).toContainText('No sign-in needed');
});

test('security headers on pages, route handlers and static files; pages hydrate with no CSP violation', async ({ page, request }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  const res = await page.goto('/');
  const h = res!.headers();
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('same-origin');
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(h['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  // hydrated: a client component answers (the planner recomputes in the browser)
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await page.getByLabel('Target failure rate (%)').fill('10');
  await expect(page.getByTestId('planner-summary')).toContainText('2 replicates (now 1)');
  expect(violations).toEqual([]);

  for (const url of ['/api/health', '/icon.svg', '/runs']) {
    const r = await request.get(url);
    expect(r.headers()['x-content-type-options'], url).toBe('nosniff');
    expect(r.headers()['x-frame-options'], url).toBe('DENY');
  }
});

test('a cross-site POST to a state-changing route handler is refused, in single-user mode too', async ({ request }) => {
  const runs = await request.get('/api/health');
  expect(runs.status()).toBe(200);
  for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
    const r = await request.post('/api/runs/r_none/control', { data: { action: 'cancel' }, headers });
    expect(r.status()).toBe(403);
    expect(((await r.json()) as { error: string }).error).toMatch(/cross-site request refused/);
  }
  // a page of another site reaching this machine under its own name (DNS rebinding) is not the local user
  const rebound = await request.get('/api/runs/r_none/progress', { headers: { host: 'evil.example' } });
  expect(rebound.status()).toBe(401);
});
