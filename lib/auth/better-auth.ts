import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { env } from '../env';
import { pool } from '../db/client';
import { authSecret } from '../db/users';

// Better Auth owns password hashing (scrypt), sessions, cookies, its CSRF/origin checks and the sign-in
// rate limit. Its tables are ours (prisma/migrations/20261201102100_accounts_and_audit): snake_case names mapped here.

const ts = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

function options(secret: string) {
  const e = env();
  return {
    appName: 'Tool Contract Lab',
    secret,
    baseURL: e.TCLAB_PUBLIC_URL,
    basePath: '/api/auth',
    database: pool(),
    // this site: TCLAB_PUBLIC_URL, and the origin the request names in Host (same-origin, as Next checks
    // server actions; a cross-site POST never gets here: app/api/auth refuses it first)
    trustedOrigins: (request?: Request) => {
      const host = request?.headers.get('host');
      return [e.TCLAB_PUBLIC_URL ? new URL(e.TCLAB_PUBLIC_URL).origin : null, host ? `http://${host}` : null, host ? `https://${host}` : null];
    },
    telemetry: { enabled: false },
    // accounts are made by an admin (`tclab user add`, the users page, the set-up link), never by sign-up
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 12, autoSignIn: false },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', ...ts },
      additionalFields: { role: { type: 'string' as const, required: true, defaultValue: 'viewer', input: false } },
    },
    session: {
      modelName: 'sessions',
      fields: { expiresAt: 'expires_at', ipAddress: 'ip_address', userAgent: 'user_agent', userId: 'user_id', ...ts },
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    account: {
      modelName: 'accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        ...ts,
      },
    },
    verification: { modelName: 'verifications', fields: { expiresAt: 'expires_at', ...ts } },
    // in PostgreSQL, so every web process counts the same attempts and a restart forgets nothing
    rateLimit: {
      enabled: true,
      storage: 'database' as const,
      modelName: 'rate_limits',
      fields: { lastRequest: 'last_request' },
      window: 60,
      max: 300,
      customRules: { '/sign-in/email': { window: 60, max: e.TCLAB_SIGNIN_MAX } },
    },
    advanced: { cookiePrefix: 'tclab' },
    // its warnings (no base URL when TCLAB_PUBLIC_URL is unset: derived from each request) only when debugging
    logger: { level: e.TCLAB_LOG_LEVEL === 'debug' ? ('debug' as const) : ('error' as const), disabled: e.TCLAB_LOG_LEVEL === 'silent' },
  } satisfies BetterAuthOptions;
}

function build(secret: string) {
  return betterAuth(options(secret));
}
export type Auth = ReturnType<typeof build>;

const g = globalThis as unknown as { __tclabAuth?: { url: string; auth: Promise<Auth> } };

/** The Better Auth instance of this process (its secret comes from the environment or the database). */
export function auth(): Promise<Auth> {
  const url = env().DATABASE_URL;
  if (g.__tclabAuth?.url !== url) {
    const made = authSecret(env().TCLAB_AUTH_SECRET).then(build);
    made.catch(() => {
      if (g.__tclabAuth?.auth === made) g.__tclabAuth = undefined;
    });
    g.__tclabAuth = { url, auth: made };
  }
  return g.__tclabAuth.auth;
}

/** Tests switch databases between suites. */
export function resetAuth(): void {
  g.__tclabAuth = undefined;
}
