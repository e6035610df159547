import { describe, expect, it } from 'vitest';
import { AccessDenied, can, decide, requirePermission, ROLE_PERMISSIONS, ROLES, rolesWith, SINGLE_USER_ACTOR, type Actor } from './roles';
import { crossSiteRefusal, hostName, isLoopbackHost } from './origin';

const user = (role: Actor['role']): Actor => ({ kind: 'user', userId: 'u1', email: 'a@lab.example', name: 'a', role });

describe('roles', () => {
  it('gives each role what the issue names, and admin everything', () => {
    expect(rolesWith('experiment.write')).toEqual(['admin', 'researcher']);
    expect(rolesWith('run.control')).toEqual(['admin', 'researcher']);
    expect(rolesWith('review.write')).toEqual(['admin', 'reviewer']);
    expect(rolesWith('users.manage')).toEqual(['admin']);
    expect(rolesWith('server.exec')).toEqual(['admin']);
    expect(rolesWith('read')).toEqual([...ROLES]);
    for (const r of ROLES) for (const p of ROLE_PERMISSIONS[r]) expect(can('admin', p)).toBe(true);
  });

  it('decides 401 for nobody, 403 for a role without the permission', () => {
    expect(decide(null, 'read')).toMatchObject({ ok: false, status: 401 });
    expect(decide(user('reviewer'), 'run.control')).toMatchObject({ ok: false, status: 403, message: expect.stringContaining('admin or researcher') });
    expect(decide(user('viewer'), 'read')).toMatchObject({ ok: true });
    expect(decide(SINGLE_USER_ACTOR, 'users.manage')).toMatchObject({ ok: true });
    expect(() => requirePermission(user('viewer'), 'review.write')).toThrow(AccessDenied);
  });
});

describe('cross-site refusal', () => {
  const h = (o: Record<string, string>) => new Headers({ host: '127.0.0.1:3060', ...o });
  it('lets reads and same-origin changes through, and requests from no browser page', () => {
    expect(crossSiteRefusal({ method: 'GET', headers: h({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }) })).toBeNull();
    expect(crossSiteRefusal({ method: 'POST', headers: h({ origin: 'http://127.0.0.1:3060', 'sec-fetch-site': 'same-origin' }) })).toBeNull();
    expect(crossSiteRefusal({ method: 'POST', headers: h({}) })).toBeNull();
  });
  it('refuses another site by Sec-Fetch-Site or by Origin', () => {
    expect(crossSiteRefusal({ method: 'POST', headers: h({ 'sec-fetch-site': 'cross-site' }) })).toMatch(/Sec-Fetch-Site: cross-site/);
    expect(crossSiteRefusal({ method: 'POST', headers: h({ 'sec-fetch-site': 'same-site' }) })).toMatch(/same-site/);
    expect(crossSiteRefusal({ method: 'DELETE', headers: h({ origin: 'https://evil.example' }) })).toMatch(/not this site/);
    expect(crossSiteRefusal({ method: 'POST', headers: h({ origin: 'null' }) })).toMatch(/refused/);
    expect(crossSiteRefusal({ method: 'POST', headers: h({ origin: 'http://127.0.0.1:9999' }) })).toMatch(/not this site/);
    expect(crossSiteRefusal({ method: 'POST', headers: h({ origin: 'https://lab.example' }), extraHosts: ['lab.example'] })).toBeNull();
  });
  it('knows loopback names', () => {
    for (const x of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3']) expect(isLoopbackHost(x)).toBe(true);
    for (const x of ['0.0.0.0', '192.168.1.2', 'localhost.evil.example', '::']) expect(isLoopbackHost(x)).toBe(false);
    expect(hostName('[::1]:3000')).toBe('[::1]');
    expect(hostName('localhost:3000')).toBe('localhost');
  });
});
