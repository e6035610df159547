// Use case: what a door shows of experiments as stored — the list, one version, the versions of an id, the
// drafts, where the designer opens an id, and an experiment's audit trail. Plain reads with nothing to
// compose: lib/db stores the rows, and the doors read them here (docs/architecture.md).

export { BrokenExperimentError, getExperiment, listExperiments } from '../db/experiments';
export { designerDestination, listDrafts, listVersions } from '../db/drafts';
export { experimentAudit } from '../db/audit';
