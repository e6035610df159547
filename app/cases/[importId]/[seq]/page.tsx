import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageActor } from '@/app/_auth/guard';
import { can } from '@/lib/auth/roles';
import { candidateForReview } from '@/lib/cases/read';
import { ReviewCandidateForm } from '@/components/cases/CaseForms';
import { urls } from '@/lib/urls';

export const metadata: Metadata = { title: 'Candidate case' };

export const dynamic = 'force-dynamic';

const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

export default async function CandidatePage({ params }: { params: Promise<{ importId: string; seq: string }> }) {
  const actor = await pageActor('read');
  const { importId, seq: seqText } = await params;
  const seq = Number(seqText);
  if (!Number.isSafeInteger(seq) || seq < 1) notFound();
  const found = await candidateForReview(importId, seq);
  if (!found) notFound();
  const { row, head } = found;
  const c = row.candidate;
  const isHead = head === row.seq;
  return (
    <>
      <p className="small">
        <Link href={urls.cases()}>Cases from traffic</Link> › <Link href={urls.traceImport(importId)}>{found.import.file}</Link>
      </p>
      <h1>
        Candidate {row.seq}{' '}
        <span className="muted small">
          ({found.position} of {found.heads} to review)
        </span>
      </h1>
      <p className="muted small" data-testid="candidate-provenance">
        {c.provenance.format}, line {c.provenance.line}
        {c.provenance.traceId && <> · trace {c.provenance.traceId}</>} · model {c.model ?? 'not recorded'} · catalog {c.catalogCompleteness} · status{' '}
        <strong data-testid="candidate-status">{row.status}</strong>
        {row.reviewer && <> by {row.reviewer}</>}
        {row.rejectReason && <> ({row.rejectReason})</>}
      </p>
      {c.system && (
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>System instructions</h2>
          <pre className="text">{c.system}</pre>
        </section>
      )}
      <section className="panel" data-testid="candidate-conversation">
        <h2 style={{ marginTop: 0 }}>Conversation up to the decision</h2>
        {c.conversation.map((m, k) => (
          <div key={k}>
            <strong>{m.role}</strong>
            {m.text !== null && <pre className="text">{m.text}</pre>}
            {(m.calls ?? []).map((call, j) => (
              <pre key={j} className="text">
                → {call.name}({json(call.arguments)})
              </pre>
            ))}
          </div>
        ))}
      </section>
      <section className="panel" data-testid="candidate-observed">
        <h2 style={{ marginTop: 0 }}>What the model did</h2>
        {c.observed.calls.length === 0 && <p>No call{c.observed.text !== null ? ': it answered in text.' : '.'}</p>}
        {c.observed.calls.map((call, j) => (
          <pre key={j} className="text">
            {call.name}({json(call.arguments)})
          </pre>
        ))}
        {c.observed.text !== null && <pre className="text">{c.observed.text}</pre>}
        <p className="muted small">
          The observed call is not the expected one: the case card says what should have happened.{' '}
          {!isHead && head !== null && (
            <>
              This candidate is reviewed with its group&apos;s first, <Link href={urls.candidate(importId, head)}>candidate {head}</Link>.
            </>
          )}
        </p>
      </section>
      <details className="panel">
        <summary>Tools offered ({c.tools.length})</summary>
        {c.tools.map((t) => (
          <div key={t.name}>
            <strong className="mono">{t.name}</strong>
            <p>{t.description ?? <span className="muted">no description</span>}</p>
            {t.parameters !== null && <pre className="text">{json(t.parameters)}</pre>}
          </div>
        ))}
      </details>
      {isHead && can(actor.role, 'review.write') && (
        <ReviewCandidateForm importId={importId} seq={row.seq} tools={c.tools.map((t) => ({ name: t.name, parameters: t.parameters }))} />
      )}
    </>
  );
}
