import ipaddr from 'ipaddr.js';

// Which addresses an MCP import made from the server may reach when the person asking is not an admin
// (docs/mcp-import.md). Deny by default: only addresses ipaddr.js classes as plain `unicast` (public) pass —
// loopback, link-local (the cloud metadata service at 169.254.169.254 included), private, unique-local
// (fd00:ec2::254 included), carrier-grade NAT, unspecified, multicast, broadcast, reserved, and IPv6 forms
// that embed an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are refused. Pure: no lookup, no traffic.

/** Host names refused whatever they resolve to (cloud metadata services reached by name). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** `[::1]` → `::1`; a trailing dot and case dropped. */
export function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Why a host name (before any lookup) may not be reached, or null. */
export function hostNameRefusal(hostname: string): string | null {
  const h = bareHost(hostname);
  if (METADATA_NAMES.has(h)) return `${h} is a cloud metadata service`;
  return null;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  linkLocal: 'link-local',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
};

/**
 * Why an IP address may not be reached, or null for a public unicast address. An IPv4-mapped IPv6 address
 * (::ffff:127.0.0.1) is judged as the IPv4 address it carries. Anything that does not parse is refused.
 */
export function addressRefusal(address: string): string | null {
  const bare = bareHost(address).replace(/%.*$/, ''); // a zone (fe80::1%eth0) does not change the range
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  const ip = ipaddr.process(bare);
  if (ip.kind() === 'ipv4' && ip.toString() === '169.254.169.254') return `${address} is the cloud metadata service (link-local)`;
  if (ip.kind() === 'ipv6' && ip.toNormalizedString() === ipaddr.parse('fd00:ec2::254').toNormalizedString()) return `${address} is the cloud metadata service (private)`;
  const range = ip.range();
  if (range === 'unicast') return null;
  return `${address} is a ${RANGE_WORDS[range] ?? `special-purpose (${range})`} address`;
}
