import { TEMPLATES } from '../templates';
import type { ExperimentRow } from '../db/experiments';
import { saveExperiment } from './versions';

/** Store a built-in template as an experiment (a new version only when the template's content changed). */
export async function ensureTemplateExperiment(templateId: string): Promise<ExperimentRow & { created: boolean }> {
  const t = TEMPLATES[templateId];
  if (!t) throw new Error(`unknown template "${templateId}" (known: ${Object.keys(TEMPLATES).join(', ')})`);
  return saveExperiment(t.build(), { template: templateId });
}
