// What changed between two versions of an experiment, by JSON path: every leaf (or whole subtree that
// appears or disappears) that differs, with its value on each side. Arrays of objects that carry an `id`
// (scenarios, studies, conditions, cases, tools) are matched by id, so reordering is not a change of every
// element; other arrays are compared by index.

export interface SpecChange {
  /** e.g. `studies[selection].conditions[clear].tools.invoice.en[0].description` */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export function diffSpecs(a: unknown, b: unknown): SpecChange[] {
  const out: SpecChange[] = [];
  walk(a, b, '', out);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const key = (p: string, k: string) => (/^[A-Za-z_$][\w$-]*$/.test(k) ? (p ? `${p}.${k}` : k) : `${p}[${JSON.stringify(k)}]`);
const idOf = (v: unknown): string | null => (isObject(v) && typeof v.id === 'string' ? v.id : null);

function walk(a: unknown, b: unknown, path: string, out: SpecChange[]): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) return void out.push({ path: path || '$', kind: 'added', after: b });
  if (b === undefined) return void out.push({ path: path || '$', kind: 'removed', before: a });
  if (Array.isArray(a) && Array.isArray(b)) {
    const byId = a.every((x) => idOf(x) !== null) && b.every((x) => idOf(x) !== null) && a.length + b.length > 0;
    if (byId) {
      const left = new Map(a.map((x) => [idOf(x)!, x]));
      const right = new Map(b.map((x) => [idOf(x)!, x]));
      for (const [id, x] of left) walk(x, right.get(id), `${path}[${id}]`, out);
      for (const [id, y] of right) if (!left.has(id)) walk(undefined, y, `${path}[${id}]`, out);
      return;
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], key(path, k), out);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: path || '$', kind: 'changed', before: a, after: b });
}
