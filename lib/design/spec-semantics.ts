import { Ajv } from 'ajv';
import type { z } from 'zod';
import type { ExperimentSpecShape } from '../schema/experiment';
import type { PathIssue } from '../schema/common';
import { KIND_SPECS } from '../studies/specs';
import { expectedValueProblems, parameterTypes, wantedDefs } from './argument-types';

// Semantic validation of an experiment spec whose shape is right: every reference (tool, parameter, label,
// condition, check, case, scenario, locale) resolves, ids are unique where they are keys, every
// expectation can be met and checks something, every expected argument value has the type its parameter's
// schema gives it (lib/design/argument-types.ts), and every parameters object is a JSON Schema that compiles.
// Each issue carries its path. Pure: no env, no database.

/** The kinds whose studies may add a distractor catalog (KindSpec.catalog). */
const CATALOG_KINDS = Object.values(KIND_SPECS).flatMap((k) => (k.catalog ? [k.kind] : []));

type Spec = z.output<typeof ExperimentSpecShape>;
type Study = Spec['studies'][number];
type Kase = Study['cases'][number];
type Expected = Kase['checks'][number]['expected'];
type Path = (string | number)[];
export type { PathIssue };

function dupes(xs: readonly string[]): string[] {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const x of xs) (seen.has(x) ? out : seen).add(x);
  return [...out];
}

const own = <V>(o: Record<string, V>, k: string): V | undefined => (Object.hasOwn(o, k) ? o[k] : undefined);

/**
 * Ajv 8 with the checks that catch a schema which cannot mean what it says: the meta-schema
 * (e.g. `properties` given as a string) and `required` naming a property that is not defined. Unknown
 * keywords and formats are left alone (real tool schemas carry annotations such as `x-…`).
 */
function schemaCompiler(): (schema: Record<string, unknown>) => string | null {
  const ajv = new Ajv({ strict: false, strictRequired: true, validateFormats: false, addUsedSchema: false, allErrors: false });
  const cache = new Map<string, string | null>();
  return (schema) => {
    const key = JSON.stringify(schema);
    if (cache.has(key)) return cache.get(key)!;
    let why: string | null = null;
    try {
      ajv.compile(schema);
    } catch (e) {
      why = (e as Error).message.replace(/\s+/g, ' ').slice(0, 300);
    }
    cache.set(key, why);
    return why;
  };
}

/** Labels compare as scoring compares them: trimmed, NFC, case-insensitive. */
const labelKey = (s: string) => s.normalize('NFC').trim().toUpperCase();

export function checkSpecSemantics(spec: Spec): PathIssue[] {
  const issues: PathIssue[] = [];
  const issue = (path: Path, message: string) => issues.push({ path, message });
  const compile = schemaCompiler();
  const locales = new Set(spec.locales);
  const scenarios = new Map(spec.scenarios.map((s) => [s.id, s]));

  dupes(spec.locales).forEach((d) => issue(['locales'], `duplicate locale "${d}"`));
  dupes(spec.scenarios.map((s) => s.id)).forEach((d) => issue(['scenarios'], `duplicate scenario id "${d}"`));
  spec.scenarios.forEach((s, i) => dupes(s.tools.map((t) => t.id)).forEach((d) => issue(['scenarios', i, 'tools'], `duplicate tool id "${d}" in scenario "${s.id}"`)));
  // the fields study kinds add to a scenario (task: the fixture back-end), checked by their kind
  spec.scenarios.forEach((s, i) => Object.values(KIND_SPECS).forEach((k) => k.validateScenario?.(s, ['scenarios', i], issue)));
  dupes(spec.studies.map((s) => s.id)).forEach((d) => issue(['studies'], `duplicate study id "${d}"`));

  spec.studies.forEach((study, si) => {
    const base: Path = ['studies', si];
    const baselines = study.conditions.filter((c) => c.baseline);
    if (baselines.length !== 1) issue([...base, 'conditions'], `exactly one condition must be the baseline (found ${baselines.length})`);
    dupes(study.conditions.map((c) => c.id)).forEach((d) => issue([...base, 'conditions'], `duplicate condition id "${d}"`));
    dupes(study.cases.map((c) => c.id)).forEach((d) => issue([...base, 'cases'], `duplicate case id "${d}"`));
    for (const locale of spec.locales)
      if (!own(study.protocol.system, locale)) issue([...base, 'protocol', 'system', locale], `no system instruction for locale "${locale}"`);
    for (const locale of Object.keys(study.protocol.system))
      if (!locales.has(locale)) issue([...base, 'protocol', 'system', locale], `locale "${locale}" is not in locales`);
    dupes(study.protocol.labels.map(labelKey)).forEach((d) => issue([...base, 'protocol', 'labels'], `duplicate label "${d}"`));
    const markers = Object.values(study.protocol.markers);
    if (new Set(markers).size !== markers.length) issue([...base, 'protocol', 'markers'], 'the markers must differ from each other');

    study.conditions.forEach((cond, ci) => {
      if (cond.variant && !study.conditions.some((k) => k.id === cond.variant!.of && k !== cond))
        issue([...base, 'conditions', ci, 'variant', 'of'], `unknown condition "${cond.variant.of}" (a variant is made from another condition of the study)`);
      if (cond.variant && cond.baseline) issue([...base, 'conditions', ci, 'variant'], 'the baseline cannot be a generated variant');
      for (const scenarioId of Object.keys(cond.tools)) {
        const scenario = scenarios.get(scenarioId);
        const sp: Path = [...base, 'conditions', ci, 'tools', scenarioId];
        if (!scenario) {
          issue(sp, `unknown scenario "${scenarioId}"`);
          continue;
        }
        for (const locale of Object.keys(cond.tools[scenarioId])) {
          const defs = cond.tools[scenarioId][locale];
          const p: Path = [...sp, locale];
          if (!locales.has(locale)) issue(p, `locale "${locale}" is not in locales`);
          dupes(defs.map((d) => d.name)).forEach((d) => issue(p, `two tools are named "${d}"`));
          dupes(defs.map((d) => d.tool)).forEach((d) => issue(p, `two definitions of scenario tool "${d}" in one catalog`));
          defs.forEach((d, di) => {
            if (!scenario.tools.some((t) => t.id === d.tool)) issue([...p, di, 'tool'], `"${d.tool}" is not a tool of scenario "${scenarioId}"`);
            const why = compile(d.parameters);
            if (why) issue([...p, di, 'parameters'], `not a JSON Schema that compiles: ${why}`);
          });
        }
      }
    });

    study.cases.forEach((c, ci) => checkCase(spec, study, c, [...base, 'cases', ci], [...base], issue));
    if (study.catalog) {
      const cp: Path = [...base, 'catalog'];
      if (!KIND_SPECS[study.kind].catalog) issue(cp, `a distractor catalog is supported in ${CATALOG_KINDS.join(' and ')} studies only (this study is ${study.kind})`);
      dupes(study.catalog.sizes.map(String)).forEach((d) => issue([...cp, 'sizes'], `duplicate catalog size ${d}`));
      dupes(study.catalog.discovery.map((d) => d.id)).forEach((d) => issue([...cp, 'discovery'], `duplicate discovery id "${d}"`));
      if ('tools' in study.catalog.source)
        dupes(study.catalog.source.tools.map((t) => t.name)).forEach((d) => issue([...cp, 'source', 'tools'], `two catalog tools are named "${d}"`));
    }
  });

  spec.prechecks.forEach((pc, i) => {
    const study = spec.studies.find((s) => s.id === pc.study);
    if (!study) return issue(['prechecks', i, 'study'], `unknown study "${pc.study}"`);
    if (!study.conditions.some((c) => c.id === pc.condition)) issue(['prechecks', i, 'condition'], `unknown condition "${pc.condition}"`);
    if (!study.cases.some((c) => c.id === pc.caseId)) issue(['prechecks', i, 'caseId'], `unknown case "${pc.caseId}"`);
  });
  dupes(spec.prechecks.map((p) => `${p.study}/${p.condition}/${p.caseId}`)).forEach((d) => issue(['prechecks'], `duplicate pre-check ${d}`));
  return issues;
}

function checkCase(spec: Spec, study: Study, c: Kase, p: Path, base: Path, issue: (path: Path, message: string) => void): void {
  const scenario = spec.scenarios.find((s) => s.id === c.scenario);
  if (!scenario) issue([...p, 'scenario'], `unknown scenario "${c.scenario}"`);
  if (!spec.locales.includes(c.locale)) issue([...p, 'locale'], `locale "${c.locale}" is not in locales`);
  // the definitions each condition sends for this case
  const catalogs = study.conditions.map((cond, ki) => {
    const byLocale = own(cond.tools, c.scenario);
    const defs = byLocale ? own(byLocale, c.locale) : undefined;
    if (!defs) issue([...base, 'conditions', ki, 'tools'], `condition "${cond.id}" has no tools for ${c.scenario}/${c.locale} (case "${c.id}")`);
    return { cond, defs: defs ?? [] };
  });
  // the kind's own fields and checks (lib/studies/<kind>/spec.ts), e.g. interpretation's fixed call
  KIND_SPECS[study.kind].validateCase(c, p, issue, scenario);
  if (c.fixedCall && scenario) {
    const tool = c.fixedCall.tool;
    if (scenario.tools.some((t) => t.id === tool))
      for (const { cond, defs } of catalogs)
        if (defs.length && !defs.some((d) => d.tool === tool))
          issue([...p, 'fixedCall', 'tool'], `condition "${cond.id}" does not send tool "${tool}" for ${c.scenario}/${c.locale}`);
  }
  const checkIds = new Set(c.checks.map((k) => k.id));
  dupes(c.checks.map((k) => k.id)).forEach((d) => issue([...p, 'checks'], `duplicate check id "${d}"`));
  const expectation = (e: Expected, ep: Path) => {
    const fields = Object.keys(e).filter((k) => e[k as keyof Expected] !== undefined);
    if (fields.length === 0) return issue(ep, 'checks nothing: give at least one of decision, tool, call_count, arguments, label, write_count');
    let effect: 'read' | 'write' | undefined;
    if (e.tool !== undefined && scenario) {
      const t = scenario.tools.find((x) => x.id === e.tool);
      if (!t) issue([...ep, 'tool'], `"${e.tool}" is not a tool of scenario "${c.scenario}"`);
      effect = t?.effect;
    }
    if (e.decision && e.tool !== undefined) {
      if ((e.decision === 'read' || e.decision === 'write') && effect && effect !== e.decision)
        issue([...ep, 'decision'], `decision "${e.decision}" expects a ${e.decision} tool, but "${e.tool}" is a ${effect} tool`);
      if (e.decision === 'clarify' || e.decision === 'stop') issue([...ep, 'tool'], `decision "${e.decision}" expects no call, so no tool can be expected`);
    }
    if (e.label !== undefined && !study.protocol.labels.some((l) => labelKey(l) === labelKey(e.label!)))
      issue([...ep, 'label'], `label "${e.label}" is not defined by the study's protocol (labels: ${study.protocol.labels.join(', ') || 'none'})`);
    if (e.arguments) {
      // the tools the call may name: the expected one, else those of the decided effect, else any
      const effects = new Map(scenario?.tools.map((t) => [t.id, t.effect]) ?? []);
      const wanted = (d: { tool: string }) =>
        e.tool !== undefined ? d.tool === e.tool : e.decision === 'read' || e.decision === 'write' ? effects.get(d.tool) === e.decision : true;
      const props = new Set<string>();
      let open = false;
      for (const { defs } of catalogs)
        for (const d of defs.filter(wanted)) {
          const pr = d.parameters.properties;
          if (pr && typeof pr === 'object' && !Array.isArray(pr)) Object.keys(pr).forEach((k) => props.add(k));
          else open = true;
        }
      if (!open && catalogs.some((k) => k.defs.length))
        for (const k of Object.keys(e.arguments))
          if (!props.has(k)) issue([...ep, 'arguments', k], `no tool ${e.tool !== undefined ? `"${e.tool}" ` : ''}sent for this case has a parameter "${k}"`);
    }
  };
  c.checks.forEach((k, i) => expectation(k.expected, [...p, 'checks', i, 'expected']));
  checkArgumentTypes(c, p, catalogs, new Map(scenario?.tools.map((t) => [t.id, t.effect]) ?? []), issue);
  for (const condId of Object.keys(c.expectByCondition)) {
    if (!study.conditions.some((k) => k.id === condId)) issue([...p, 'expectByCondition', condId], `unknown condition "${condId}"`);
    const byCheck = c.expectByCondition[condId];
    for (const checkId of Object.keys(byCheck)) {
      const ep: Path = [...p, 'expectByCondition', condId, checkId];
      if (!checkIds.has(checkId)) issue(ep, `no check "${checkId}" in this case`);
      else expectation({ ...c.checks.find((k) => k.id === checkId)!.expected, ...byCheck[checkId] }, ep);
    }
  }
}

/**
 * Every expected argument value has its parameter's type, in each condition's definitions for the case: the
 * card's expectation where the condition does not replace it, else the replacement (at its own path). A
 * number where the schema says string is refused, never coerced: `0593135202` must be written as text.
 */
function checkArgumentTypes(
  c: Kase,
  p: Path,
  catalogs: { cond: { id: string }; defs: { tool: string; parameters: unknown }[] }[],
  effects: ReadonlyMap<string, string>,
  issue: (path: Path, message: string) => void,
): void {
  const seen = new Set<string>();
  for (const { cond, defs } of catalogs) {
    if (defs.length === 0) continue;
    const overrides = own(c.expectByCondition, cond.id);
    c.checks.forEach((k, i) => {
      const over = overrides ? own(overrides, k.id) : undefined;
      const e = { ...k.expected, ...over };
      if (!e.arguments) return;
      const ep: Path = over?.arguments ? [...p, 'expectByCondition', cond.id, k.id] : [...p, 'checks', i, 'expected'];
      const types = parameterTypes(wantedDefs(defs, e, effects));
      for (const [name, value] of Object.entries(e.arguments)) {
        const t = types.get(name);
        if (!t) continue; // an unknown parameter is reported by the expectation's own check
        for (const m of expectedValueProblems(t, value)) {
          const key = JSON.stringify([...ep, name, m]);
          if (seen.has(key)) continue;
          seen.add(key);
          issue([...ep, 'arguments', name], m);
        }
      }
    });
  }
}
