import Link from 'next/link';
import { setupTokenOk } from '@/lib/auth/bootstrap';
import { SetupForm } from '@/components/auth/SetupForm';

export const dynamic = 'force-dynamic';

/** The one-time set-up link printed on the server's console: a public door, opened by its token only. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const ok = typeof token === 'string' && token.length > 0 && (await setupTokenOk(token));
  return (
    <>
      <h1>Set up</h1>
      {ok ? (
        <SetupForm token={token} />
      ) : (
        <p className="panel">
          This set-up link is not valid: it was used, it expired, or the server restarted and printed a new one. <Link href="/sign-in">Sign in</Link>
        </p>
      )}
    </>
  );
}
