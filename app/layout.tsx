import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  // each page names itself (its own metadata or generateMetadata); the site's name follows
  title: { default: 'Tool Contract Lab', template: '%s · Tool Contract Lab' },
  description: 'Controlled experiments on LLM tool definitions: paired, traceable, exportable.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
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
            </nav>
          </div>
        </header>
        <main className="wrap">{children}</main>
      </body>
    </html>
  );
}
