import { expect, test as setup } from '@playwright/test';
import { SINGLE_USER_STATE } from './single-user-state';

// Before the single-user specs: open the link the server printed (scripts/e2e.sh reads it from the
// owner-only file the server writes), as the person who ran `npm start` does, and keep that browser's cookie.
setup('open the link npm start printed', async ({ page, baseURL }) => {
  const link = process.env.E2E_SINGLE_USER_LINK ?? '';
  expect(link, 'E2E_SINGLE_USER_LINK: the link the single-user server printed (scripts/e2e.sh sets it)').toMatch(/\/\?token=/);
  await page.goto(link);
  // the token is gone from the address, and the browser is in
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByTestId('who')).toHaveText('single-user mode');
  await page.context().storageState({ path: SINGLE_USER_STATE });
});
