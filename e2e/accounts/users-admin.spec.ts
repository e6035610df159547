import { expect, test, type Page } from '@playwright/test';
import { account, signInPage } from './users';

// An admin manages accounts in the browser: adds one (its password shown once), the new user signs in with
// it, the admin changes its role (the user's session ends; the next one has the new role), the last admin
// cannot step down, and the page's audit names the admin.

async function signInAs(page: Page, email: string, password: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('an admin adds a user, who signs in with the shown password; a role change ends their session; the last admin stays', async ({ browser, baseURL }) => {
  const admin = await browser.newPage({ baseURL });
  await signInPage(admin, 'admin');
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await admin.waitForURL(/\/admin\/users$/);
  for (const role of ['admin', 'researcher', 'reviewer', 'viewer'] as const) await expect(admin.getByTestId(`user-${account(role).email}`)).toBeVisible();

  const email = `added-${Date.now()}@e2e.example`;
  const form = admin.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption('viewer');
  await form.getByRole('button', { name: 'Add' }).click();
  const password = (await admin.getByTestId('added-password').textContent()) ?? '';
  expect(password.length).toBeGreaterThanOrEqual(20);
  await expect(admin.getByTestId(`user-${email}`)).toBeVisible();
  // the same email again: refused naming the field, what was typed stays
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(admin.getByTestId('add-user-errors')).toContainText('exists already');
  await expect(form.getByLabel('Email')).toHaveValue(email);

  // the new user signs in with the password shown; a viewer may not manage users
  const user = await browser.newPage({ baseURL });
  await signInAs(user, email, password);
  await expect(user.getByTestId('who')).toContainText(`${email} · viewer`);
  await expect(user.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
  expect((await user.goto('/admin/users'))?.status()).toBe(403);

  // a role change ends their session at once
  const row = admin.getByTestId(`user-${email}`);
  await row.getByLabel(`Role of ${email}`).selectOption('reviewer');
  await row.getByRole('button', { name: 'Change role' }).click();
  await expect(admin.getByTestId(`role-result-${email}`)).toContainText('viewer → reviewer');
  await user.goto('/runs');
  await user.waitForURL(/\/sign-in\?next=%2Fruns/);
  await signInAs(user, email, password);
  await expect(user.getByTestId('who')).toContainText(`${email} · reviewer`);

  // the only admin cannot step down
  const adminEmail = account('admin').email;
  const adminRow = admin.getByTestId(`user-${adminEmail}`);
  await adminRow.getByLabel(`Role of ${adminEmail}`).selectOption('viewer');
  await adminRow.getByRole('button', { name: 'Change role' }).click();
  await expect(admin.getByTestId(`role-result-${adminEmail}`)).toContainText('is the last admin');
  await admin.reload();
  await expect(admin.getByTestId('who')).toContainText(`${adminEmail} · admin`);
  await expect(admin.getByLabel(`Role of ${adminEmail}`)).toHaveValue('admin');

  // the audit names who did it
  const audit = admin.getByRole('region', { name: 'Account changes' }).getByTestId('audit');
  await expect(audit.locator('tr', { hasText: `${email} (viewer)` })).toContainText(adminEmail);
  await expect(audit.locator('tr', { hasText: `${email}: viewer → reviewer` })).toContainText(adminEmail);
  await admin.close();
  await user.close();
});
