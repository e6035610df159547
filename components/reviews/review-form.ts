export interface ReadingValues {
  humanStatus: string;
  note: string;
}

export interface ReviewFormState {
  /** Paths `readings.<i>.<field>` (the i-th reading of the form), or `readings`; each message names its check. */
  issues: { path: string; message: string }[];
  message: string | null;
  /** What was submitted, by reading index: the form shows it again (React resets a form after its action). */
  values?: Record<number, ReadingValues>;
}

/** Field names of the i-th reading of a pair's form. */
export const readingField = (field: 'trialId' | 'checkId' | 'humanStatus' | 'note', i: number) => `${field}.${i}`;

/** The readings a pair's form submitted, by index (`checkId.<i>` names one), at most `max`. */
export function readingsFromForm(form: { get(k: string): unknown; keys(): Iterable<string> }, max: number) {
  const field = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' ? v : '';
  };
  const indices = [...new Set([...form.keys()].map((k) => /^checkId\.(\d{1,4})$/.exec(k)?.[1]).filter((x): x is string => x !== undefined))]
    .map(Number)
    .sort((a, b) => a - b)
    .slice(0, max + 1);
  return indices.map((i) => ({
    index: i,
    trialId: field(readingField('trialId', i)),
    checkId: field(readingField('checkId', i)),
    humanStatus: field(readingField('humanStatus', i)),
    note: field(readingField('note', i)),
  }));
}
