-- Spend guards (issue 26 item 3): a run may carry a budget (requests, tokens, estimated cost); what it has
-- spent is counted on the run row, for runs with a budget only (lib/db/budget.ts).
ALTER TABLE "runs" ADD COLUMN "budget" JSONB;
ALTER TABLE "runs" ADD COLUMN "budget_sent" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "runs" ADD COLUMN "budget_input_tokens" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "runs" ADD COLUMN "budget_output_tokens" BIGINT NOT NULL DEFAULT 0;

-- The tokens a budgeted run has used: every write of a formal attempt's usage (an answer, a conversation
-- turn, the same attempt recorded again) adds what changed. Runs without a budget are not touched.
CREATE FUNCTION "tclab_budget_tokens"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d_in bigint := COALESCE(NEW.input_tokens, 0) - CASE WHEN TG_OP = 'UPDATE' THEN COALESCE(OLD.input_tokens, 0) ELSE 0 END;
  d_out bigint := COALESCE(NEW.output_tokens, 0) - CASE WHEN TG_OP = 'UPDATE' THEN COALESCE(OLD.output_tokens, 0) ELSE 0 END;
BEGIN
  IF NEW.kind <> 'formal' OR (d_in = 0 AND d_out = 0) THEN RETURN NULL; END IF;
  UPDATE "runs" SET "budget_input_tokens" = "budget_input_tokens" + d_in, "budget_output_tokens" = "budget_output_tokens" + d_out
   WHERE "id" = NEW.run_id AND "budget" IS NOT NULL;
  RETURN NULL;
END $$;

CREATE TRIGGER "attempts_budget_tokens" AFTER INSERT OR UPDATE OF "input_tokens", "output_tokens" ON "attempts"
  FOR EACH ROW EXECUTE FUNCTION "tclab_budget_tokens"();
