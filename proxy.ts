import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, PATH_HEADER } from '@/lib/auth/headers';

// Every request but static files (and one route, below): a fresh nonce and the content security policy built on it (on the
// request, so Next marks its scripts with the nonce, and on the response), and the page's own path.
// The single-user link (`/?token=…`, printed by `npm start`) is answered by its route handler, which sets
// the browser's cookie and sends it on to the same address without the token (lib/auth/local-link.ts).
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', csp);
  headers.set('x-nonce', nonce);
  headers.set(PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const { pathname, searchParams } = request.nextUrl;
  const token = pathname === '/' ? searchParams.get('token') : null;
  let response: NextResponse;
  if (token !== null) {
    const rest = new URLSearchParams(searchParams);
    rest.delete('token');
    const target = new URL('/api/single-user-link', request.url);
    target.searchParams.set('token', token);
    target.searchParams.set('next', rest.size ? `/?${rest.toString()}` : '/');
    response = NextResponse.rewrite(target, { request: { headers } });
  } else response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

// …but for the trace import route, whose body (a file of up to 1 GiB) the route spools to disk as it arrives: a proxy
// in front would buffer it first (up to proxyClientMaxBodySize) — it answers JSON, so needs no CSP.
export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image|icon.svg|api/trace-imports).*)' }],
};
