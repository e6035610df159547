-- One home for the candidate-order index (issue 13 item 5): a trial stores it as a column, written from the
-- design's order when the matrix is inserted (lib/db/trials.ts insertTrials), instead of every reader parsing
-- the `o<i>` part back out of the pair key (study|scenario|locale|case|o<i>|r<n>, lib/design/matrix.ts).
-- Rows from before are backfilled from their pair key, read from its end (the last two parts are always
-- o<i> and r<n>), which for every key the matrix builds is the same as the `split_part(…, 5)` readers used.
ALTER TABLE "trials" ADD COLUMN "order_index" INTEGER;
UPDATE "trials" SET "order_index" = substring("pair_key" from '\|o(\d+)\|r\d+$')::int;
ALTER TABLE "trials" ALTER COLUMN "order_index" SET NOT NULL;
-- The grouped queries of Table 1 (lib/db/aggregate.ts: order consistency, flipped cases) group one run's
-- trials by study, condition, scenario, locale, case and replicate and order each group by order index;
-- the trials table sorts a run's page by it.
CREATE INDEX "trials_run_id_unit_order_index_idx"
  ON "trials"("run_id", "study", "condition", "scenario", "locale", "case_id", "replicate", "order_index");
