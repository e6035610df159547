-- Room on each page for the next version of a row, so that the updates every trial makes (the sending mark on
-- its trial, the answer on its attempt) can stay on the page (heap-only tuples: no index entry written).
ALTER TABLE "trials" SET (fillfactor = 80);
ALTER TABLE "attempts" SET (fillfactor = 70);
