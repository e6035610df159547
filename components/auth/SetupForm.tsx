'use client';

import { useActionState } from 'react';
import { keepValues } from '../keep-values';
import { createFirstAdminAction, type SetupState } from './setup-actions';

export function SetupForm({ token }: { token: string }) {
  const [state, action, pending] = useActionState<SetupState, FormData>(createFirstAdminAction.bind(null, token), { message: null });
  return (
    <form action={action} onSubmit={keepValues(action)} className="panel" style={{ maxWidth: 420 }} data-testid="setup">
      <label>
        Email <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password (12 characters or more) <input name="password" type="password" autoComplete="new-password" minLength={12} required />
      </label>
      <div className="row">
        <button type="submit" disabled={pending}>
          Create the first admin
        </button>
        {state.message && (
          <span className="field-error" role="alert">
            {state.message}
          </span>
        )}
      </div>
    </form>
  );
}
