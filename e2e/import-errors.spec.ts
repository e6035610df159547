import { expect, test } from '@playwright/test';
import { importViaForm, tinyExperiment } from './helpers';

test('import shows each spec error with its field path and stores nothing', async ({ page }) => {
  const id = `e2e-invalid-${Date.now()}`;
  const spec = tinyExperiment(id) as { studies: { cases: { scenario: string }[] }[]; replicates?: unknown };
  spec.studies[0].cases[0].scenario = 'nowhere';
  await importViaForm(page, spec);
  const errors = page.getByTestId('import-errors');
  await expect(errors).toContainText('nothing was stored');
  await expect(errors).toContainText('studies.0.cases.0.scenario');

  const typed = tinyExperiment(id) as Record<string, unknown>;
  typed.replicates = 'many';
  await importViaForm(page, typed);
  await expect(errors).toContainText('replicates');

  await importViaForm(page, '{"format": "tclab.experiment/v1",');
  await expect(errors).toContainText('not valid JSON');
  await expect(errors).toContainText('(json)');
  // what was pasted stays in the field after the error, to be corrected rather than pasted again
  await expect(page.getByLabel('Spec JSON')).toHaveValue('{"format": "tclab.experiment/v1",');

  await page.goto('/');
  await expect(page.locator('body')).not.toContainText(id);
});
