-- A run's name and note (issue 22 item 8): free text a researcher gives a run so the runs list, the run
-- page and the JSON export say what it was for. Both optional and editable after the run; older runs have none.
ALTER TABLE "runs" ADD COLUMN "name" TEXT;
ALTER TABLE "runs" ADD COLUMN "note" TEXT;
