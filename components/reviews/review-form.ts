export interface ReviewFormState {
  issues: { path: string; message: string }[];
  message: string | null;
  /** What was submitted: the form shows it again (React resets a form after its action). */
  values?: { humanStatus: string; note: string };
}
