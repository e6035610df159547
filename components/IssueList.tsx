/** Validation problems, one per field path. */
export function IssueList({ message, issues, testId }: { message: string | null; issues: { path: string; message: string }[]; testId?: string }) {
  if (!message && issues.length === 0) return null;
  return (
    <div className="errors" role="alert" data-testid={testId}>
      {message && <strong>{message}</strong>}
      {issues.length > 0 && (
        <ul>
          {issues.map((i, k) => (
            <li key={k}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
