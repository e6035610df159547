-- Pre-checks are durable: the process sending a run's pre-checks holds a lease on the run; a run left in
-- `prechecking` whose lease ran out (its process is gone) is taken over by reconcile or `resume`.
ALTER TABLE "runs" ADD COLUMN "precheck_owner" TEXT;
ALTER TABLE "runs" ADD COLUMN "precheck_lease_expires_at" TIMESTAMP(3);
