import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { viewer } from './_auth/guard';
import { SignOutButton } from '@/components/auth/SignOutButton';
import { can } from '@/lib/auth/roles';
import './globals.css';

export const metadata: Metadata = {
  // each page names itself (its own metadata or generateMetadata); the site's name follows
  title: { default: 'Tool Contract Lab', template: '%s · Tool Contract Lab' },
  description: 'Controlled experiments on LLM tool definitions: paired, traceable, exportable.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { mode, actor } = await viewer();
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <div className="wrap header-inner">
            <Link href="/" className="brand">
              Tool Contract Lab
            </Link>
            <nav aria-label="Main">
              <Link href="/">Experiments</Link>
              <Link href="/runs">Runs</Link>
              <Link href="/cases">Traces</Link>
              <Link href="/docs">Docs</Link>
              {actor && can(actor.role, 'users.manage') && <Link href="/admin/users">Users</Link>}
            </nav>
            <div className="small" data-testid="who" style={{ marginLeft: 'auto' }}>
              {mode === 'single-user' ? (
                <span title="Listening on this machine only, with no accounts: no sign-in needed. Set HOST or add a user to share it.">single-user mode</span>
              ) : actor?.kind === 'user' ? (
                <span className="row">
                  <span>
                    {actor.email} · {actor.role}
                  </span>
                  <SignOutButton />
                </span>
              ) : (
                <Link href="/sign-in">Sign in</Link>
              )}
            </div>
          </div>
        </header>
        <main className="wrap">{children}</main>
      </body>
    </html>
  );
}
