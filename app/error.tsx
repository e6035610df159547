'use client';

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="errors" role="alert">
      <strong>Something went wrong.</strong>
      <p>{error.message}</p>
      {error.digest && <p className="small mono">digest {error.digest}</p>}
      <button type="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
