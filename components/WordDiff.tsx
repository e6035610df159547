import { diffWords } from 'diff';

/** Word-level diff of a description against the baseline's (added words underlined, removed struck). */
export function WordDiff({ before, after }: { before: string; after: string }) {
  if (before === after)
    return (
      <p className="small muted" data-testid="diff-same">
        same as baseline
      </p>
    );
  return (
    <p className="small" data-testid="word-diff">
      {diffWords(before, after).map((part, i) =>
        part.added ? (
          <ins key={i} style={{ background: 'var(--good-bg)' }}>
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={i} style={{ background: 'var(--bad-bg)' }}>
            {part.value}
          </del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </p>
  );
}
