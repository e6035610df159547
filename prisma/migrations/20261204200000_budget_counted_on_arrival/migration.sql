-- A budgeted run's tokens are counted when each answer arrives (lib/runner/budget.ts, docs/spend-guards.md),
-- before its slot is handed on, no longer when its attempt is recorded: the trigger goes, and with it the
-- statement it ran for every formal attempt of every run, budgeted or not.
DROP TRIGGER "attempts_budget_tokens" ON "attempts";
DROP FUNCTION "tclab_budget_tokens"();
