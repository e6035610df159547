import Link from 'next/link';

export default function Forbidden() {
  return (
    <>
      <h1>Not allowed</h1>
      <p className="panel">Your role may not open this page or do this. An admin can change your role.</p>
      <p>
        <Link href="/">Experiments</Link>
      </p>
    </>
  );
}
