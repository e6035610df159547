import { diffLines } from 'diff';

/**
 * The tool definitions two conditions send, line by line: removed in the treatment, added, or the same.
 * Always rendered as text (definitions come from an imported spec).
 */
export function DefinitionsDiff({ before, after, beforeLabel, afterLabel }: { before: string; after: string; beforeLabel: string; afterLabel: string }) {
  const parts = diffLines(before, after);
  const changed = parts.some((p) => p.added || p.removed);
  return (
    <div className="panel" data-testid="definitions-diff">
      <p className="small muted">
        <span className="diff-del">− {beforeLabel}</span> <span className="diff-add">+ {afterLabel}</span>
        {!changed && ' — the two conditions send the same definitions'}
      </p>
      <pre className="text diff">
        {parts.map((p, i) => (
          <span key={i} className={p.added ? 'diff-add' : p.removed ? 'diff-del' : undefined}>
            {p.value
              .replace(/\n$/, '')
              .split('\n')
              .map((line) => `${p.added ? '+ ' : p.removed ? '- ' : '  '}${line}`)
              .join('\n')}
          </span>
        ))}
      </pre>
    </div>
  );
}
