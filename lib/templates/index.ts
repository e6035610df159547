import type { ExperimentSpec } from '../schema/experiment';
import { REFERENCE_STUDY_ID, referenceStudy } from './reference-study';
import { POLITELY_IGNORED_ID, politelyIgnored } from './politely-ignored';
import { TASK_COMPLETION_ID, taskCompletion } from './task-completion';
import { CATALOG_SCALE_ID, catalogScale } from './catalog-scale';
import { SIMULATED_ENGINE, SIMULATED_GENERIC_PREFERRING } from '../simulator';

export { PUBLISHED_REFERENCE, REFERENCE_STUDY_PUBLISHED } from './reference-study/published';
export type { PublishedCount, PublishedReferenceData, PublishedRow, PublishedStudy } from './reference-study/published';
export { REFERENCE_STUDY_ID, referenceStudy } from './reference-study';
export { TASK_COMPLETION_ID, taskCompletion } from './task-completion';
export { CATALOG_SCALE_ID, catalogScale } from './catalog-scale';

/** A built-in experiment a new user can run at once (offline with the simulated provider). */
export interface Template {
  id: string;
  name: string;
  description: string;
  /** The simulated model that shows the template's effect offline (the default model of its offline runs), and what a simulator cannot show. */
  simulated: { model: string; shows: string; cannotShow: string };
  build(): ExperimentSpec;
}

const NOT_A_MODEL = 'The simulator is a heuristic, not a language model: it shows the mechanism, never how often a real model falls for it.';

export const TEMPLATES: Record<string, Template> = {
  [REFERENCE_STUDY_ID]: {
    id: REFERENCE_STUDY_ID,
    name: 'Reference study (seed 000): restaurant bookings and invoices',
    description:
      'Tool selection with overlapping vs. clear definitions (both candidate orders) and result interpretation ' +
      'without vs. with status-code meanings; English and Traditional Chinese; 152 formal requests, 2 pre-checks.',
    simulated: {
      model: SIMULATED_ENGINE,
      shows:
        'simulated-lexical-v1 (lexical similarity): overlapping descriptions tie, so candidate order picks the write tool for reads; status codes are mapped only when their meanings are defined.',
      cannotShow: `${NOT_A_MODEL} Its baseline rates differ from the published ones (docs/statistics.md).`,
    },
    build: referenceStudy,
  },
  [POLITELY_IGNORED_ID]: {
    id: POLITELY_IGNORED_ID,
    name: 'Politely ignored (seed 001): Amazon tools beside a generic browser',
    description:
      'The six Amazon tools of seed 001 as published (false dotted names) vs. rewritten (whose session, what the cache ' +
      'means, what protects the owner), beside a generic browser tool; 8 cases, rotations over 7 tools: 112 formal requests, 1 pre-check.',
    simulated: {
      model: SIMULATED_GENERIC_PREFERRING,
      shows:
        'simulated-generic-preferring-v1: it takes the generic browser it knows unless an Amazon tool gives a checkable reason (whose session, what it caches, what protects a write) — seed 001’s mechanism. The lexical model shows no effect here.',
      cannotShow: `${NOT_A_MODEL} It cannot show a model that ignores a stated reason, nor one swayed by the false dotted names.`,
    },
    build: politelyIgnored,
  },
  [TASK_COMPLETION_ID]: {
    id: TASK_COMPLETION_ID,
    name: 'Task completion (seed 002): the four gates on a fixture back-end',
    description:
      'Multi-turn tasks whose calls run against a deterministic fixture back-end: book after checking, pay, a capability that does not exist, ' +
      'a payment whose acknowledgement is lost, a reader without the write permission, a result carrying an instruction; baseline vs. action contracts.',
    simulated: {
      model: SIMULATED_ENGINE,
      shows:
        'simulated-lexical-v1 with its task rules: it checks before it books only when the contract says so, and retries a lost acknowledgement unless an idempotency key is described.',
      cannotShow: `${NOT_A_MODEL} It does not follow instructions hidden in tool results, so the injection case passes in both conditions.`,
    },
    build: taskCompletion,
  },
  [CATALOG_SCALE_ID]: {
    id: CATALOG_SCALE_ID,
    name: 'Catalog scale: the invoice tools among 0–117 GitHub MCP tools, all sent vs. BM25 top 5',
    description:
      'The reference study’s invoice selection cases (English) with 0, 8, 32 and all 117 GitHub MCP server tools as distractors, every tool sent ' +
      'vs. a local BM25 retriever keeping the top 5, overlapping vs. clear descriptions: 144 formal requests. The funnel per condition and a chart against N.',
    simulated: {
      model: SIMULATED_ENGINE,
      shows:
        'simulated-lexical-v1 reads every tool it is sent: with more plausible candidates its pick gets noisier (seeded, docs/discovery.md), and under BM25 it can only pick what the retriever kept.',
      cannotShow: `${NOT_A_MODEL} Its crowding rate is a stated assumption, not a measurement of any model.`,
    },
    build: catalogScale,
  },
};

/** The template with this id; fails fast on an unknown id, naming the known ones. */
export function getTemplate(id: string): Template {
  const t = Object.prototype.hasOwnProperty.call(TEMPLATES, id) ? TEMPLATES[id] : undefined;
  if (!t) throw new Error(`unknown template "${id}" (known: ${Object.keys(TEMPLATES).join(', ')})`);
  return t;
}

/** The built-in template an experiment was made from (its `template` column), or null. */
export function templateOf(id: string | null | undefined): Template | null {
  return id && Object.prototype.hasOwnProperty.call(TEMPLATES, id) ? TEMPLATES[id] : null;
}
