// The first admin from TCLAB_ADMIN_EMAIL / TCLAB_ADMIN_PASSWORD, made before the web server starts
// (scripts/serve.sh), so that the server's own environment never carries the password: a process's start-up
// environment stays readable in /proc/<pid>/environ whatever it later deletes. Exit 0 once an account exists.
import { announceAccounts } from '../lib/auth/announce';
import { anyUser } from '../lib/db/users';
import { closeDb } from '../lib/db/client';

await announceAccounts();
process.exitCode = (await anyUser()) ? 0 : 1;
await closeDb();
