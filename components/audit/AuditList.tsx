import type { AuditEntry } from '@/lib/schema/audit';
import { formatDate } from '../format';

const VERBS: Record<AuditEntry['action'], string> = {
  'experiment.stored': 'stored a version',
  'run.started': 'started the run',
  'run.paused': 'paused',
  'run.resumed': 'resumed',
  'run.cancelled': 'cancelled',
  'run.labelled': 'named the run',
  'review.saved': 'reviewed a check',
  'review.assigned': 'shared review pairs',
  'user.added': 'added a user',
  'user.role_changed': 'changed a role',
  'traces.imported': 'imported traces',
  'candidate.reviewed': 'reviewed a trace candidate',
  'candidates.joined': 'added reviewed trace cases',
  'comparison.overridden': 'compared runs past the comparability guard',
  'lab.restored': 'restored an archive',
};

function what(e: AuditEntry): string {
  const d = e.detail;
  if (e.action === 'experiment.stored') return `version ${String(d.version ?? '')}`;
  if (e.action === 'run.started') return `${String(d.provider ?? '')} / ${String(d.model ?? '')}`;
  if (e.action === 'review.saved')
    return `${String(d.checkId ?? '')} of ${String(d.trialId ?? '')}: ${String(d.humanStatus ?? '')} (graded ${String(d.graderStatus ?? '')})`;
  if (e.action === 'review.assigned' && d.pairs && typeof d.pairs === 'object')
    return Object.entries(d.pairs as Record<string, unknown>)
      .map(([email, n]) => `${email}: ${String(n)}`)
      .join(', ');
  if (e.action === 'run.labelled') return `name: ${d.name == null ? '—' : String(d.name)}; note: ${d.note == null ? '—' : String(d.note)}`;
  if (e.action === 'user.added') return `${String(d.email ?? '')} (${String(d.role ?? '')})`;
  if (e.action === 'user.role_changed') return `${String(d.email ?? '')}: ${String(d.from ?? '')} → ${String(d.to ?? '')}`;
  return typeof d.status === 'string' ? `→ ${d.status}` : '';
}

/** Who did what, when: an experiment's or a run's audit entries (rendered as text). */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <p className="muted small">Nothing recorded yet.</p>;
  return (
    <div className="table-scroll">
      <table data-testid="audit">
        <thead>
          <tr>
            <th>When</th>
            <th>Who</th>
            <th>What</th>
            <th>Run</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={i} data-testid="audit-entry">
              <td className="small nowrap">{formatDate(e.at)}</td>
              <td className="mono small">{e.actor}</td>
              <td>{VERBS[e.action] ?? e.action}</td>
              <td className="mono small">{e.runId ?? ''}</td>
              <td className="small">{what(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
