import nlp from 'compromise';
import { stemmer } from 'stemmer';
import { splitName } from './retriever';

// Two linter rules that matter once a tool has to be found (docs/linter.md): a retriever or
// a vendor's tool search matches the user's words against the name and description, so a description that
// never uses a verb of the tasks it serves is hard to find, and a name that reads like a distractor's is easy
// to confuse with it. Libraries: compromise (part-of-speech tags and verb roots of the task texts, English
// only) and stemmer (Porter's stemmer).

/** Verbs that carry no task: auxiliaries and modals are left out by their tags; these by name. */
const NO_TASK = new Set(['be', 'have', 'do', 'can', 'could', 'will', 'would', 'shall', 'should', 'may', 'might', 'must', 'please', 'let', 'want', 'need', 'like']);

/** Whether the rule reads this locale's texts (compromise tags English only). */
export const taskVerbLocale = (locale: string) => /^en\b/i.test(locale);

export interface TaskVerb {
  /** The verb's root as compromise gives it (`paid` → `pay`). */
  root: string;
  /** Its Porter stem (`submitted` → `submit`). */
  stem: string;
}

// compromise is slow on long text: a task is read up to this many characters (a task is a sentence or two)
const TASK_CHARS = 2_000;

/** The verbs of task texts (English), each root once, in the order first met. */
export function taskVerbs(tasks: readonly string[]): TaskVerb[] {
  const out = new Map<string, TaskVerb>();
  for (const task of tasks) for (const v of verbsOfTask(task)) if (!out.has(v.root)) out.set(v.root, v);
  return [...out.values()];
}

// a study's tasks are read once for each catalog (condition × scenario × locale): each text is tagged once
const MEMO_MAX = 10_000;
const memo = new Map<string, TaskVerb[]>();

function verbsOfTask(task: string): TaskVerb[] {
  const hit = memo.get(task);
  if (hit) return hit;
  const out = new Map<string, TaskVerb>();
  // a URL is read as words ("Open https://…" lost its verb): it stands for a thing
  const doc = nlp(task.slice(0, TASK_CHARS).replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, 'the link'));
  doc.compute('root');
  // (the root appears once computed; compromise's option type does not list it)
  const terms = doc.json({ terms: { normal: true, tags: true } } as object) as { terms: { normal: string; root?: string; tags: string[] }[] }[];
  for (const sentence of terms)
    for (const t of sentence.terms) {
      if (!t.tags.includes('Verb') || t.tags.some((g) => g === 'Auxiliary' || g === 'Modal' || g === 'Copula' || g === 'Particle' || g === 'Pronoun')) continue;
      const root = (t.root ?? t.normal).toLowerCase().replace(/[^a-z]/g, '');
      if (root.length < 2 || NO_TASK.has(root) || out.has(root)) continue;
      out.set(root, { root, stem: stemmer(root) });
    }
  if (memo.size >= MEMO_MAX) memo.clear();
  const verbs = [...out.values()];
  memo.set(task, verbs);
  return verbs;
}

/**
 * Whether a description uses one of the verbs: a word whose Porter stem is the verb's (`submits`, `submitted`
 * for submit), or a word that starts with the verb's root of three letters or more (`payment` for pay,
 * `booking` for book). Lenient on purpose: the rule flags a description that shares none.
 */
export function usesTaskVerb(description: string, verbs: readonly TaskVerb[]): boolean {
  if (verbs.length === 0) return true;
  const stems = new Set(verbs.map((v) => v.stem));
  const roots = verbs.map((v) => v.root).filter((r) => r.length >= 3);
  for (const w of description.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (stems.has(stemmer(w))) return true;
    if (roots.some((r) => w.startsWith(r))) return true;
  }
  return false;
}

/** A name's words, case-folded, split at `_`, `.`, `-` and camelCase, in sorted order: `listIssues` → `issues list`. */
export function nameKey(name: string): string {
  return splitName(name).split(/\s+/).filter(Boolean).sort().join(' ');
}

/**
 * The distractor whose name is a near collision with `name`: the same words after splitting and case-folding
 * (in any order), but not the same name (an exact collision is refused when the spec is read).
 */
export function nearDistractor(name: string, distractorKeys: ReadonlyMap<string, string>): string | null {
  const hit = distractorKeys.get(nameKey(name));
  return hit !== undefined && hit !== name ? hit : null;
}
