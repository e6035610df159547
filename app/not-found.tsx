import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="panel">
      <h1>Not found</h1>
      <p>There is no such experiment, run or trial.</p>
      <Link href="/">← Experiments</Link>
    </div>
  );
}
