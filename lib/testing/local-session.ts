import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueLocalLink, openLocalLink } from '../auth/local-link';

/**
 * For integration tests of doors in single-user mode: the `cookie` header of a browser that opened the
 * server's link, made the way the server makes it (a fresh link, used once).
 */
export async function localSessionCookie(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tclab-link-'));
  try {
    const { url } = await issueLocalLink(dir);
    const opened = await openLocalLink(new URL(url).searchParams.get('token'), new Headers());
    if (!opened.ok || !opened.setCookie) throw new Error('the single-user link did not open');
    return opened.setCookie.split(';')[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
