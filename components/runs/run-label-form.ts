export interface RunLabelFormState {
  issues: { path: string; message: string }[];
  message: string | null;
  /** What was submitted (React resets a form after its action). */
  values?: { name: string; note: string };
}
