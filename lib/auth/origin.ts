// State-changing requests from another site are refused (CSRF): a browser names where a request comes from
// in Sec-Fetch-Site and Origin; a request with neither is not from a browser page (curl, the CLI, a script)
// and carries no ambient cookie of a victim's browser session by accident.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginCheckInput {
  method: string;
  headers: Headers;
  /** Hosts (host[:port]) the app is reached at besides the request's own Host, e.g. TCLAB_PUBLIC_URL's. */
  extraHosts?: readonly string[];
}

/** null when the request may proceed; otherwise why it is refused. */
export function crossSiteRefusal({ method, headers, extraHosts = [] }: OriginCheckInput): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  const origin = headers.get('origin');
  if (origin === null) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `cross-site request refused (Origin: ${origin})`;
  }
  const hosts = new Set([headers.get('x-forwarded-host'), headers.get('host'), ...extraHosts].filter((h): h is string => !!h));
  if (!hosts.has(originHost)) return `cross-site request refused (Origin ${origin} is not this site)`;
  return null;
}

/** A host name that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The host name of a Host header value (`localhost:3000`, `[::1]:3000`). */
export function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0];
}
