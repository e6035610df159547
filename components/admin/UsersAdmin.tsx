'use client';

import { useActionState } from 'react';
import { ROLE_DESCRIPTIONS, ROLES } from '@/lib/auth/roles';
import { IssueList } from '../IssueList';
import { keepValues } from '../keep-values';
import { addUserAction, setRoleAction, type UsersFormState } from './user-actions';

const initial: UsersFormState = { message: null, issues: [] };

export interface UserItem {
  email: string;
  name: string;
  role: string;
  createdAt: string;
}

/** Add an account (its password generated and shown once). The first account must be an admin. */
export function AddUserForm({ first }: { first: boolean }) {
  const [state, action, pending] = useActionState(addUserAction, initial);
  return (
    <form action={action} onSubmit={keepValues(action)} className="panel" aria-label="Add a user">
      <h2 style={{ marginTop: 0 }}>{first ? 'Add the first account (an admin)' : 'Add a user'}</h2>
      {first && (
        <p className="small muted">
          There is no account yet. Once one exists everyone signs in, this machine&apos;s browser too: the first account is an admin, and its password is shown below
          once.
        </p>
      )}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="user-email">Email</label>
          <input id="user-email" name="email" type="email" required autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="user-name">Name</label>
          <input id="user-name" name="name" placeholder="(the email)" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="user-role">Role</label>
          <select id="user-role" name="role" defaultValue={first ? 'admin' : 'viewer'}>
            {ROLES.map((r) => (
              <option key={r} value={r} disabled={first && r !== 'admin'}>
                {r} — {ROLE_DESCRIPTIONS[r]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Adding…' : 'Add'}
      </button>
      {state.added && (
        <p className="panel" role="status" data-testid="added-user">
          Added <span className="mono">{state.added.email}</span> ({state.added.role}). Password, shown once — pass it on now:{' '}
          <code data-testid="added-password">{state.added.password}</code>
        </p>
      )}
      <IssueList message={state.message} issues={state.issues} testId="add-user-errors" />
    </form>
  );
}

function RoleForm({ user }: { user: UserItem }) {
  const [state, action, pending] = useActionState(setRoleAction, initial);
  return (
    <form action={action} onSubmit={keepValues(action)} className="row" style={{ gap: 4 }}>
      <input type="hidden" name="email" value={user.email} />
      <select name="role" defaultValue={user.role} aria-label={`Role of ${user.email}`}>
        {ROLES.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button type="submit" disabled={pending}>
        Change role
      </button>
      {state.message && (
        <span className={state.issues.length ? 'field-error' : 'small muted'} data-testid={`role-result-${user.email}`}>
          {state.issues.length ? state.issues.map((i) => `${i.path}: ${i.message}`).join('; ') : state.message}
        </span>
      )}
    </form>
  );
}

/** The accounts, each with its role to change. */
export function UsersTable({ users }: { users: UserItem[] }) {
  return (
    <div className="table-scroll">
      <table data-testid="users">
        <thead>
          <tr>
            <th>Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>Added</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.email} data-testid={`user-${u.email}`}>
              <td className="mono">{u.email}</td>
              <td>{u.name}</td>
              <td>
                <RoleForm user={u} />
              </td>
              <td className="small">{u.createdAt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
