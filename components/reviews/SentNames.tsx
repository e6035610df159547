import { toolNameSegments } from '@/lib/analysis/tool-names';

/** Text that names scenario tool ids, shown with the names the model was sent (the id beside, in grey). */
export function SentNames({ text, names }: { text: string; names: ReadonlyMap<string, string> }) {
  return (
    <>
      {toolNameSegments(text, names).map((s, i) =>
        'text' in s ? (
          <span key={i}>{s.text}</span>
        ) : (
          <span key={i} data-tool={s.tool}>
            {s.name}{' '}
            <span className="muted" data-testid="tool-id">
              ({s.tool})
            </span>
          </span>
        ),
      )}
    </>
  );
}
