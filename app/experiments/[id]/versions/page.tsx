import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { getExperiment, listVersions } from '@/lib/experiments/read';
import { diffSpecs } from '@/lib/design/spec-diff';
import { formatDate } from '@/components/format';
import { pageActor } from '@/app/_auth/guard';
import { urls } from '@/lib/urls';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await pageParams(params);
  return { title: `Versions of ${id}` };
}

export const dynamic = 'force-dynamic';

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 400 ? `${s.slice(0, 400)}…` : s;
};

/** One end of the comparison: a select of the experiment's versions. */
function VersionSelect({ name, word, label, value, versions }: { name: string; word: string; label: string; value: number; versions: { version: number }[] }) {
  return (
    <label>
      {word}{' '}
      <select name={name} defaultValue={String(value)} aria-label={label}>
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            v{v.version}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Version history of an experiment, and what changed between any two versions, by JSON path. */
export default async function VersionsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ a?: string; b?: string }> }) {
  await pageActor('read');
  const { id } = await pageParams(params);
  const exp = await getExperiment(id);
  if (!exp) notFound();
  const versions = await listVersions(exp.slug);
  const q = await searchParams;
  const a = Number(q.a ?? Math.max(1, exp.version - 1));
  const b = Number(q.b ?? exp.version);
  const va = versions.find((v) => v.version === a);
  const vb = versions.find((v) => v.version === b);
  const [ea, eb] = await Promise.all([va ? getExperiment(va.id) : null, vb ? getExperiment(vb.id) : null]);
  const changes = ea && eb ? diffSpecs(ea.spec, eb.spec) : [];
  return (
    <>
      <h1>Versions of {exp.slug}</h1>
      <table className="compact" data-testid="versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Name</th>
            <th>Hash</th>
            <th className="num">Runs</th>
            <th>Stored</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.id}>
              <td>
                <Link href={urls.experiment(v.id)}>v{v.version}</Link>
              </td>
              <td>{v.name}</td>
              <td className="mono small">{v.specHash.slice(0, 19)}…</td>
              <td className="num">{v.runs}</td>
              <td className="small muted">{formatDate(v.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="row panel" method="get">
        <VersionSelect name="a" word="from" label="From version" value={a} versions={versions} />
        <VersionSelect name="b" word="to" label="To version" value={b} versions={versions} />
        <button type="submit">Compare</button>
      </form>
      <h2>
        v{a} → v{b}: {changes.length} change{changes.length === 1 ? '' : 's'}
      </h2>
      <table className="compact" data-testid="version-diff">
        <thead>
          <tr>
            <th>Path</th>
            <th>Change</th>
            <th>v{a}</th>
            <th>v{b}</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.path} data-testid="version-change">
              <td className="mono small" data-testid="change-path">
                {c.path}
              </td>
              <td>{c.kind}</td>
              <td className="small" style={{ whiteSpace: 'pre-wrap' }}>
                {c.before === undefined ? '' : show(c.before)}
              </td>
              <td className="small" style={{ whiteSpace: 'pre-wrap' }}>
                {c.after === undefined ? '' : show(c.after)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small">
        <Link href={urls.experiment(exp.id)}>← {exp.id}</Link>
      </p>
    </>
  );
}
