import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Role } from '../../lib/auth/roles';

// The accounts scripts/e2e.sh makes on the accounts server with `tclab user add` (one per role).
export const account = (role: Role) => ({ email: `${role}@e2e.example`, password: `e2e-${role}-password-2026`, role });

/** Sign in through the sign-in page (a browser: cookies, redirect back). */
export async function signInPage(page: Page, role: Role, next = '/'): Promise<void> {
  const a = account(role);
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(a.email);
  await page.getByLabel('Password').fill(a.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('who')).toContainText(`${a.email} · ${role}`);
}

/** Sign an API context in (its cookie jar keeps the session). */
export async function signInRequest(request: APIRequestContext, baseURL: string, role: Role): Promise<void> {
  const a = account(role);
  const res = await request.post('/api/auth/sign-in/email', { data: { email: a.email, password: a.password }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}
