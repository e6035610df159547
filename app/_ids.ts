import { notFound } from 'next/navigation';
import { urlIds } from '@/lib/url-id';

// The one reading of ids from a URL for pages and route handlers (lib/url-id.ts): an id no stored row can
// have (a NUL, a control character, a lone surrogate, too long) is not found — a 404, never a query.

/** A page's params, or the 404 page. */
export async function pageParams<T extends Record<string, string>>(params: Promise<T>): Promise<T> {
  return urlIds(await params) ?? notFound();
}

/** A route handler's params, or null: answer `notFoundResponse()`. */
export async function routeParams<T extends Record<string, string>>(params: Promise<T>): Promise<T | null> {
  return urlIds(await params);
}

export function notFoundResponse(): Response {
  return Response.json({ ok: false, error: 'not found' }, { status: 404 });
}
