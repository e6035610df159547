// Loads the built-in templates (the reference study of seed 000) as experiments. Idempotent.
import { ensureTemplateExperiment } from '../lib/experiments/templates';
import { TEMPLATES } from '../lib/templates';
import { closeDb } from '../lib/db/client';

for (const id of Object.keys(TEMPLATES)) {
  const e = await ensureTemplateExperiment(id);
  console.error(`[tclab] template ${id}: ${e.created ? 'stored as' : 'already stored as'} ${e.id}`);
}
await closeDb();
