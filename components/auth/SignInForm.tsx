'use client';

import { useState } from 'react';

/** Email and password to Better Auth's sign-in endpoint; its cookie is set on the response. */
export function SignInForm({ next }: { next: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    setBusy(true);
    setMessage(null);
    try {
      const res = await fetch('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: form.get('email'), password: form.get('password') }),
      });
      if (res.ok) {
        window.location.assign(next);
        return;
      }
      if (res.status === 429) setMessage(`Too many attempts: try again in ${res.headers.get('x-retry-after') ?? 'a few'} seconds.`);
      else if (res.status === 401) setMessage('Wrong email or password.');
      else setMessage(`Sign-in failed (${res.status}).`);
    } catch (e) {
      setMessage(`Sign-in failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form action={submit} className="panel" style={{ maxWidth: 420 }} data-testid="sign-in">
      <label>
        Email <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <div className="row">
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {message && (
          <span className="field-error" role="alert">
            {message}
          </span>
        )}
      </div>
    </form>
  );
}
