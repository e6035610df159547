-- The five checkpoints of seed 000 per trial (visibility, selection, parameters, interpretation,
-- completion), each pass | fail | untested, as scored with the trial's one formal result.
ALTER TABLE "trials" ADD COLUMN "checkpoints" JSONB;
