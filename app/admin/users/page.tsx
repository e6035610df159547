import type { Metadata } from 'next';
import { pageActor } from '@/app/_auth/guard';
import { AddUserForm, UsersTable } from '@/components/admin/UsersAdmin';
import { AuditList } from '@/components/audit/AuditList';
import { formatDate } from '@/components/format';
import { ROLE_DESCRIPTIONS, ROLES } from '@/lib/auth/roles';
import { listUsers, userAudit } from '@/lib/accounts/accounts';

export const metadata: Metadata = { title: 'Users' };

export const dynamic = 'force-dynamic';

export default async function UsersPage() {
  await pageActor('users.manage');
  const [users, audit] = await Promise.all([listUsers(), userAudit()]);
  return (
    <>
      <h1>Users</h1>
      <p className="muted">Accounts and their roles. A changed role applies at once: that user&apos;s sessions end. The last admin cannot be given another role.</p>
      <ul className="small">
        {ROLES.map((r) => (
          <li key={r}>
            <strong>{r}</strong>: {ROLE_DESCRIPTIONS[r]}
          </li>
        ))}
      </ul>
      {users.length > 0 && <UsersTable users={users.map((u) => ({ email: u.email, name: u.name, role: u.role, createdAt: formatDate(u.createdAt) }))} />}
      <AddUserForm first={users.length === 0} />
      <section className="panel" aria-label="Account changes">
        <h2 style={{ marginTop: 0 }}>Account changes</h2>
        <AuditList entries={audit} />
      </section>
    </>
  );
}
