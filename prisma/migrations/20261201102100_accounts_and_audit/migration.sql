-- Accounts, roles and attribution (issue 12). The first five tables are Better Auth's (email and password,
-- sessions, its rate limit), as its own migration generator writes them for the names mapped in
-- lib/auth/better-auth.ts; a user's role is our column on its user table.
CREATE TABLE "users" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "name" TEXT NOT NULL,
  "email" TEXT NOT NULL,
  "email_verified" BOOLEAN NOT NULL,
  "image" TEXT,
  "role" TEXT NOT NULL DEFAULT 'viewer',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "users_role_check" CHECK ("role" IN ('admin', 'researcher', 'reviewer', 'viewer'))
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "sessions" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "token" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  "ip_address" TEXT,
  "user_agent" TEXT,
  "user_id" TEXT NOT NULL REFERENCES "users"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "sessions_token_key" ON "sessions"("token");
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

CREATE TABLE "accounts" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "account_id" TEXT NOT NULL,
  "provider_id" TEXT NOT NULL,
  "user_id" TEXT NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "access_token" TEXT,
  "refresh_token" TEXT,
  "id_token" TEXT,
  "access_token_expires_at" TIMESTAMPTZ(3),
  "refresh_token_expires_at" TIMESTAMPTZ(3),
  "scope" TEXT,
  "password" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "accounts_user_id_idx" ON "accounts"("user_id");

CREATE TABLE "verifications" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "identifier" TEXT NOT NULL,
  "value" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "verifications_identifier_idx" ON "verifications"("identifier");

CREATE TABLE "rate_limits" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "key" TEXT NOT NULL,
  "count" INTEGER NOT NULL,
  "last_request" BIGINT NOT NULL
);
CREATE UNIQUE INDEX "rate_limits_key_key" ON "rate_limits"("key");

-- The secret that signs session cookies when TCLAB_AUTH_SECRET is not set: generated once, shared by every
-- process of the installation.
CREATE TABLE "auth_secret" (
  "id" INTEGER NOT NULL PRIMARY KEY,
  "secret" TEXT NOT NULL,
  CONSTRAINT "auth_secret_one_row" CHECK ("id" = 1)
);

-- Who did what, when: one row per change (experiment versions, runs and their control actions, reviews,
-- users). No foreign keys: an entry outlives the account and stays readable.
CREATE TABLE "audit_events" (
  "id" BIGSERIAL PRIMARY KEY,
  "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "actor" TEXT NOT NULL,
  "actor_user_id" TEXT,
  "action" TEXT NOT NULL,
  "experiment_id" TEXT,
  "run_id" TEXT,
  "detail" JSONB NOT NULL DEFAULT '{}'
);
CREATE INDEX "audit_events_experiment_id_idx" ON "audit_events"("experiment_id");
CREATE INDEX "audit_events_run_id_idx" ON "audit_events"("run_id");

-- A review's reviewer is the signed-in account (its email in "reviewer", its id here); null in single-user mode.
ALTER TABLE "reviews" ADD COLUMN "reviewer_user_id" TEXT;
