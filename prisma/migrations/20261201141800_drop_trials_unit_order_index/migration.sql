-- The index 20261201132000_trial_order_index added for the grouped queries is used by none of them: with
-- 100,000 trials in five runs, analysed, every query of lib/db/aggregate.ts (order consistency, flipped
-- cases) and the trials page sorted by order reads a run through trials_run_id_status_idx and groups or
-- sorts after its hash join with observations, with the same plan and time with and without it (flipped
-- cases 93–99 ms, order cells 33–40 ms, a page by order 5–6 ms, load average 6.4–6.7). An index no plan reads still
-- takes an entry on every row version a claim or a result writes, so it goes; order_index itself stays.
DROP INDEX IF EXISTS "trials_run_id_unit_order_index_idx";
