import Link from 'next/link';
import { headers } from 'next/headers';
import { authMode, resolveActor } from '@/lib/auth/access';
import { SignInForm } from '@/components/auth/SignInForm';

export const dynamic = 'force-dynamic';

/** Only a path of this site is a place to go back to. */
function safeNext(next: string | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  // a public door: anyone may see the form; Better Auth checks what is sent to it
  const { next } = await searchParams;
  if ((await authMode()) === 'single-user' && !(await resolveActor(await headers())))
    return (
      <>
        <h1>Open the link printed by npm start</h1>
        <p className="panel" data-testid="single-user-link-needed">
          This app runs in single-user mode: only the browser that opened the link <code>npm start</code> printed on its console (<code>http://127.0.0.1:…/?token=…</code>
          , a new one on every start; also in <code>.tclab/single-user-link-PORT</code> in the checkout, readable by its owner only) gets in. Open that link in this
          browser.
        </p>
      </>
    );
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
