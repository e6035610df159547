import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env } from '../env';
import { consumeLocalLink, localSessionValid, storeLocalLink, storeLocalSession } from '../db/local-sessions';

// Single-user mode admits only the browser of the person who started the server (docs/access.md): the
// server prints a link with a one-time token at start (as Jupyter does); opening it gives that browser a
// cookie, and every door in single-user mode asks for the cookie (lib/auth/access.ts resolveActor). Only
// hashes of the token and of the cookie's value are stored.

const SESSION_DAYS = 30;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The cookie's name: one per port, since browsers share cookies between the ports of one host. */
export const localCookieName = (): string => `tclab_local_${env().PORT}`;

/** Where the server also writes its link (owner-only), for scripts and the end-to-end tests. */
export const localLinkFile = (cwd = process.cwd()): string => path.join(cwd, '.tclab', `single-user-link-${env().PORT}`);

function baseUrl(): string {
  const e = env();
  const host = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  return `http://${host}:${e.PORT}`;
}

/**
 * At server start in single-user mode: a fresh random token (32 bytes), its hash stored (the previous
 * start's link stops working), and the link written to localLinkFile() readable by its owner only.
 */
export async function issueLocalLink(cwd?: string): Promise<{ url: string; file: string }> {
  const token = randomBytes(32).toString('base64url');
  await storeLocalLink(sha256(token));
  const url = `${baseUrl()}/?token=${token}`;
  const file = localLinkFile(cwd);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  rmSync(file, { force: true });
  writeFileSync(file, `${url}\n`, { mode: 0o600, flag: 'wx' });
  return { url, file };
}

function cookieValue(headers: Headers, name: string): string | null {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** Whether the request carries the cookie the link gave (a valid, unexpired session of this app). */
export async function hasLocalSession(headers: Headers): Promise<boolean> {
  const v = cookieValue(headers, localCookieName());
  return !!v && v.length <= 100 && (await localSessionValid(sha256(v)));
}

/** Only a path of this site is a place to go on to. */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

export type LinkOutcome = { ok: true; setCookie?: string } | { ok: false; message: string };

/**
 * Opening the link: the token is used up and a new session's cookie is returned. A second use is refused —
 * unless the browser already has a session (it opened the link before), which simply goes on.
 */
export async function openLocalLink(token: string | null, headers: Headers): Promise<LinkOutcome> {
  if (token && token.length <= 100 && (await consumeLocalLink(sha256(token)))) {
    const session = randomBytes(32).toString('base64url');
    const maxAge = SESSION_DAYS * 24 * 60 * 60;
    await storeLocalSession(sha256(session), new Date(Date.now() + maxAge * 1000));
    return { ok: true, setCookie: `${localCookieName()}=${session}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}` };
  }
  if (await hasLocalSession(headers)) return { ok: true };
  return {
    ok: false,
    message: token
      ? 'This link is not valid: it was used already, or the server was restarted since (each start prints a new one). Open the link `npm start` printed last.'
      : 'token: missing. Open the link `npm start` printed on its console.',
  };
}
