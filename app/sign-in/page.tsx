import Link from 'next/link';
import { authMode } from '@/lib/auth/access';
import { SignInForm } from '@/components/auth/SignInForm';

export const dynamic = 'force-dynamic';

/** Only a path of this site is a place to go back to. */
function safeNext(next: string | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  // a public door: anyone may see the form; Better Auth checks what is sent to it
  const { next } = await searchParams;
  if ((await authMode()) === 'single-user')
    return (
      <>
        <h1>Sign in</h1>
        <p className="panel">
          No sign-in needed: this app runs in single-user mode (it listens on this machine only and has no accounts). <Link href="/">Experiments</Link>
        </p>
      </>
    );
  return (
    <>
      <h1>Sign in</h1>
      <SignInForm next={safeNext(next)} />
      <p className="small muted">
        Accounts are made by an admin (<code>npx tclab user add EMAIL --role ROLE</code>).
      </p>
    </>
  );
}
