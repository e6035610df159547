'use client';

import { useRouter } from 'next/navigation';

export function SignOutButton() {
  const router = useRouter();
  async function signOut() {
    await fetch('/api/auth/sign-out', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    router.push('/sign-in');
    router.refresh();
  }
  return (
    <button type="button" className="link-button small" onClick={signOut}>
      Sign out
    </button>
  );
}
