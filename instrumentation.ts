// At server start: the heap's growth limited (lib/heap.ts), and the first admin from the environment, or a
// one-time set-up link on the console when the app is exposed and has no account yet. NEXT_RUNTIME is a
// build-time constant (Next replaces it), not configuration: it keeps the Node-only code out of the edge bundle.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // the server streams exports of millions of trials: its heap grows 1.5× per major GC, not 4× (lib/heap.ts)
    (await import('./lib/heap')).limitHeapGrowth(1.5);
    const { announceAccounts } = await import('./lib/auth/announce');
    await announceAccounts();
  }
}
