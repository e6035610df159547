import { describe, expect, it } from 'vitest';
import { addressRefusal, hostNameRefusal } from './address';

// The address rules alone: no lookup, no connection.

describe('addressRefusal', () => {
  it('refuses loopback, IPv4 and IPv6', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '[::1]']) expect(addressRefusal(a), a).toMatch(/loopback/);
  });

  it('refuses link-local (169.254/16, fe80::/10) and the metadata service by address', () => {
    for (const a of ['169.254.1.1', 'fe80::1', 'fe80::1%eth0', 'febf::1']) expect(addressRefusal(a), a).toMatch(/link-local/);
    expect(addressRefusal('169.254.169.254')).toMatch(/metadata/);
    expect(addressRefusal('fd00:ec2::254')).toMatch(/metadata/);
  });

  it('refuses private ranges: 10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10', () => {
    for (const a of ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.254', '192.168.1.1']) expect(addressRefusal(a), a).toMatch(/private/);
    for (const a of ['fc00::1', 'fd12:3456::1']) expect(addressRefusal(a), a).toMatch(/unique local/);
    for (const a of ['100.64.0.1', '100.127.255.254']) expect(addressRefusal(a), a).toMatch(/carrier-grade NAT/);
  });

  it('refuses unspecified, broadcast, multicast and reserved addresses, and what is not an address', () => {
    expect(addressRefusal('0.0.0.0')).toMatch(/unspecified/);
    expect(addressRefusal('::')).toMatch(/unspecified/);
    expect(addressRefusal('255.255.255.255')).toMatch(/broadcast/);
    expect(addressRefusal('224.0.0.1')).toMatch(/multicast/);
    expect(addressRefusal('ff02::1')).toMatch(/multicast/);
    expect(addressRefusal('240.0.0.1')).toMatch(/reserved/);
    expect(addressRefusal('example.org')).toMatch(/not an IP address/);
  });

  it('judges an IPv4-mapped IPv6 address as the IPv4 address it carries; other embeddings are refused', () => {
    expect(addressRefusal('::ffff:127.0.0.1')).toMatch(/loopback/);
    expect(addressRefusal('[::ffff:7f00:1]')).toMatch(/loopback/);
    expect(addressRefusal('::ffff:169.254.169.254')).toMatch(/metadata/);
    expect(addressRefusal('::ffff:10.1.2.3')).toMatch(/private/);
    expect(addressRefusal('::ffff:8.8.8.8')).toBeNull();
    expect(addressRefusal('64:ff9b::7f00:1')).not.toBeNull(); // NAT64 of 127.0.0.1
    expect(addressRefusal('2002:7f00:1::')).not.toBeNull(); // 6to4 of 127.0.0.1
  });

  it('lets public unicast addresses through', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(addressRefusal(a), a).toBeNull();
  });
});

describe('hostNameRefusal', () => {
  it('refuses metadata services by name, whatever they resolve to (other names are judged by their addresses)', () => {
    expect(hostNameRefusal('metadata.google.internal')).toMatch(/metadata/);
    expect(hostNameRefusal('METADATA.GOOGLE.INTERNAL.')).toMatch(/metadata/);
    expect(hostNameRefusal('metadata')).toMatch(/metadata/);
    expect(hostNameRefusal('mcp.example.org')).toBeNull();
  });
});
