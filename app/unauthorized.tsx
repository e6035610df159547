import Link from 'next/link';

export default function Unauthorized() {
  return (
    <>
      <h1>Sign in first</h1>
      <p className="panel">
        <Link href="/sign-in">Sign in</Link> to continue.
      </p>
    </>
  );
}
