import type { Command } from 'commander';
import { addAccountAs, changeRoleAs, generatePassword, listUsers } from '../../lib/accounts/accounts';
import { isRole, ROLES } from '../../lib/auth/roles';
import { UsageError } from '../errors';
import { out } from '../output';
import { cliActor, shutdown } from './shared';

// Runs on the server's own machine with its database credentials: whoever can run it administers the app.

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk.toString();
  return text.replace(/\r?\n$/, '');
}

export function register(program: Command): void {
  const user = program.command('user').description('accounts and roles');
  user
    .command('add <email>')
    .description(`add an account; --role ${ROLES.join(' | ')}; the password is read from stdin, or generated and printed once when stdin is a terminal`)
    .requiredOption('--role <role>', ROLES.join(' | '))
    .option('--name <name>', 'display name (default: the email)')
    .action(async (email: string, opts: { role: string; name?: string }) => {
      if (!isRole(opts.role)) throw new UsageError(`--role: "${opts.role}" is not one of ${ROLES.join(', ')}`);
      const generated = process.stdin.isTTY ? generatePassword() : null;
      const password = generated ?? (await readStdin());
      try {
        const u = await addAccountAs(cliActor(), { email, role: opts.role, name: opts.name, password });
        out(`added ${u.email} (${u.role})\n`);
        if (generated) out(`password (shown once): ${generated}\n`);
      } finally {
        await shutdown();
      }
    });
  user
    .command('list')
    .description('the accounts: email, role, created')
    .option('--json', 'as JSON')
    .action(async (opts: { json?: boolean }) => {
      try {
        const users = await listUsers();
        if (opts.json) out(JSON.stringify(users.map((u) => ({ email: u.email, name: u.name, role: u.role, createdAt: u.createdAt.toISOString() }))) + '\n');
        else for (const u of users) out(`${u.email}\t${u.role}\t${u.createdAt.toISOString()}\n`);
      } finally {
        await shutdown();
      }
    });
  user
    .command('role <email> <role>')
    .description(`give an account another role (${ROLES.join(' | ')}); its sessions end; the last admin stays admin`)
    .action(async (email: string, role: string) => {
      try {
        const r = await changeRoleAs(cliActor(), { email, role });
        out(`${r.email}: ${r.from} → ${r.to}\n`);
      } finally {
        await shutdown();
      }
    });
}
