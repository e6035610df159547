import { authMode } from '@/lib/auth/access';
import { openLocalLink, safeNext } from '@/lib/auth/local-link';

export const dynamic = 'force-dynamic';

/**
 * The link `npm start` prints in single-user mode (`/?token=…`, rewritten here by proxy.ts): a public door
 * that checks its own one-time token, sets the browser's cookie and goes on to the page without the token.
 */
export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const refused = (status: number, message: string) =>
    new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  if ((await authMode()) !== 'single-user') return refused(404, 'Not in single-user mode: sign in at /sign-in.');
  const opened = await openLocalLink(url.searchParams.get('token'), req.headers);
  if (!opened.ok) return refused(403, opened.message);
  const headers = new Headers({ location: safeNext(url.searchParams.get('next')), 'cache-control': 'no-store' });
  if (opened.setCookie) headers.set('set-cookie', opened.setCookie);
  return new Response(null, { status: 303, headers });
}
