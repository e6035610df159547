-- Distractor catalogs and discovery (issue 23): a trial's catalog cell (distractors added, discovery variant)
-- and what the model could see before it decided (names, in rank order where there is one). NULL catalog
-- columns: the study has no catalog. NULL visible: not known before the answer (or a trial made before this).
ALTER TABLE "trials" ADD COLUMN "catalog_size" INTEGER;
ALTER TABLE "trials" ADD COLUMN "discovery" TEXT;
ALTER TABLE "trials" ADD COLUMN "visible" JSONB;
