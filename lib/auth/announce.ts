import { env } from '../env';
import { bootstrapAccounts } from './bootstrap';
import { issueLocalLink } from './local-link';

/** What the server prints at start about accounts (instrumentation.ts). */
export async function announceAccounts(): Promise<void> {
  const b = await bootstrapAccounts().catch((e: unknown) => {
    console.error(`[tclab] accounts: ${(e as Error).message}`);
    return null;
  });
  const e = env();
  const host = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  if (b?.kind === 'admin-created') console.error(`[tclab] created the first admin, ${b.email} (TCLAB_ADMIN_EMAIL)`);
  if (b?.kind === 'single-user') {
    // the one place the token is shown: this console line (and the owner-only file beside it)
    const link = await issueLocalLink().catch((err: unknown) => {
      console.error(`[tclab] single-user link: ${(err as Error).message}`);
      return null;
    });
    console.error('[tclab] single-user mode: listening on loopback and no account exists; only the browser that opens this link gets in:');
    if (link) console.error(`[tclab]   ${link.url}\n[tclab]   (also in ${link.file}; a new link on every start)`);
  }
  if (b?.kind === 'setup-link')
    console.error(
      `[tclab] no account exists yet. Create the first admin (once, within 24 h) at:\n[tclab]   ${e.TCLAB_PUBLIC_URL ?? `http://${host}:${e.PORT}`}/setup?token=${b.token}`,
    );
}
