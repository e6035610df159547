import type { Permission } from '../../lib/auth/roles';

// THE DOOR TABLE: what every page, route handler and server action of the app needs. doors.spec.ts finds the
// doors on the file system and fails for any door missing here — add yours when you add a door.
//   a permission (lib/auth/roles.ts) — the door calls pageActor / routeActor (app/_auth/guard.ts) / actionActor (components/auth/action-guard.ts) with it
//   'public'      — anyone (health, sign-in, the set-up link's page and action, which check their token)
//   'better-auth' — Better Auth's own endpoints (sign-in, sign-out, session): its own checks
//   'single-user-link' — the link `npm start` prints in single-user mode: its own one-time token; 404 once accounts exist

export type DoorNeed = Permission | 'public' | 'better-auth' | 'single-user-link';

/** Pages, by file under app/ (dynamic segments are filled by the spec). */
export const PAGES: Record<string, DoorNeed> = {
  'app/page.tsx': 'read',
  'app/experiments/[id]/page.tsx': 'read',
  'app/experiments/[id]/versions/page.tsx': 'read',
  'app/experiments/[id]/improve/page.tsx': 'read',
  'app/designer/[slug]/page.tsx': 'experiment.write',
  'app/runs/page.tsx': 'read',
  'app/runs/compare/page.tsx': 'read',
  'app/runs/compare/pairs/page.tsx': 'read',
  'app/runs/[id]/page.tsx': 'read',
  'app/runs/[id]/review/page.tsx': 'read',
  'app/runs/[id]/pairs/[baseline]/[treatment]/page.tsx': 'read',
  'app/runs/[id]/trials/[trialId]/page.tsx': 'read',
  'app/cases/page.tsx': 'read',
  'app/docs/page.tsx': 'read',
  'app/docs/[slug]/page.tsx': 'read',
  'app/cases/[importId]/page.tsx': 'read',
  'app/cases/[importId]/[seq]/page.tsx': 'read',
  'app/admin/users/page.tsx': 'users.manage',
  'app/sign-in/page.tsx': 'public',
  'app/setup/page.tsx': 'public',
};

/** Route handlers: file → method → need. */
export const ROUTES: Record<string, Record<string, DoorNeed>> = {
  'app/api/health/route.ts': { GET: 'public' },
  'app/api/single-user-link/route.ts': { GET: 'single-user-link' },
  'app/api/auth/[...all]/route.ts': { GET: 'better-auth', POST: 'better-auth' },
  'app/api/experiments/[id]/route.ts': { GET: 'read' },
  'app/api/experiments/[id]/optimisations/route.ts': { GET: 'read' },
  'app/api/runs/[id]/control/route.ts': { POST: 'run.control' },
  'app/api/runs/[id]/export/[kind]/route.ts': { GET: 'read' },
  'app/api/runs/report/route.ts': { GET: 'read' },
  'app/api/runs/[id]/progress/route.ts': { GET: 'read' },
  'app/api/runs/[id]/trials/route.ts': { GET: 'read' },
  'app/api/runs/[id]/trials/[trialId]/tcc/route.ts': { GET: 'read' },
  'app/api/tool-snapshots/route.ts': { POST: 'experiment.write' },
  'app/api/trace-imports/route.ts': { POST: 'experiment.write' },
};

/** Server actions: `file#export` of every 'use server' module under app/ and components/. */
export const ACTIONS: Record<string, DoorNeed> = {
  'components/experiments/actions.ts#importExperiment': 'experiment.write',
  'components/experiments/actions.ts#startRunAction': 'run.control',
  'components/reviews/actions.ts#saveReviewAction': 'review.write',
  'components/reviews/actions.ts#shareReviewPairsAction': 'run.control',
  'components/runs/actions.ts#labelRunAction': 'run.control',
  'components/runs/actions.ts#overrideComparisonAction': 'run.control',
  'components/auth/setup-actions.ts#createFirstAdminAction': 'public',
  'components/admin/user-actions.ts#addUserAction': 'users.manage',
  'components/admin/user-actions.ts#setRoleAction': 'users.manage',
  'components/designer/actions.ts#newExperimentAction': 'experiment.write',
  'components/designer/actions.ts#editInDesignerAction': 'experiment.write',
  'components/designer/actions.ts#duplicateAction': 'experiment.write',
  'components/designer/actions.ts#archiveAction': 'experiment.write',
  'components/designer/actions.ts#saveDraftAction': 'experiment.write',
  'components/designer/actions.ts#freezeDraftAction': 'experiment.write',
  'components/designer/actions.ts#discardDraftAction': 'experiment.write',
  'components/designer/actions.ts#savePricesAction': 'experiment.write',
  'components/designer/actions.ts#proposeAblationsAction': 'experiment.write',
  'components/designer/actions.ts#proposeVariantsAction': 'experiment.write',
  'components/optimise/actions.ts#startOptimisationAction': 'run.control',
  'components/cases/actions.ts#reviewCandidateAction': 'review.write',
  'components/cases/actions.ts#saveCasesAction': 'experiment.write',
  'components/cases/actions.ts#joinCasesAction': 'experiment.write',
};
