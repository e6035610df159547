import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// scripts/build-app.sh, the build step of `npm start`: the build's output reaches the terminal while it runs
// (prefixed), and its log is written inside the checkout it runs in — not one temp file for every checkout.
// The build command is given after `--` (a real `next build` takes minutes).

const SCRIPT = fileURLToPath(new URL('./build-app.sh', import.meta.url));

function start(cwd: string, program: string) {
  const child = spawn('bash', [SCRIPT, '--', process.execPath, '-e', program], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const seen: { text: string; then: () => void }[] = [];
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const s of seen.splice(0))
      if (stderr.includes(s.text)) s.then();
      else seen.push(s);
  });
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const waitFor = (text: string) => new Promise<void>((then) => (stderr.includes(text) ? then() : seen.push({ text, then })));
  return { exited, waitFor, stderr: () => stderr };
}

describe('the build step of npm start', () => {
  it('streams each line, prefixed, while the build is still running, and logs inside the checkout', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tclab-build-'));
    // the "build" prints a line, then goes on only once the test has seen that line on the terminal
    const b = start(
      dir,
      `console.log('Creating an optimized production build'); const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync('go')) { clearInterval(t); console.error('Compiled successfully'); } }, 20);`,
    );
    await b.waitFor('[build] Creating an optimized production build');
    writeFileSync(path.join(dir, 'go'), '');
    expect(await b.exited).toBe(0);
    expect(b.stderr()).toContain('[build] Compiled successfully');
    expect(b.stderr()).toContain('its log: .next-build.log');
    expect(readFileSync(path.join(dir, '.next-build.log'), 'utf8')).toBe('Creating an optimized production build\nCompiled successfully\n');
  });

  it('a failed build exits 1 and names its whole log', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tclab-build-'));
    const b = start(dir, `console.error('Type error: x is not assignable'); process.exitCode = 1;`);
    expect(await b.exited).toBe(1);
    expect(b.stderr()).toContain('[build] Type error: x is not assignable');
    expect(b.stderr()).toContain(`the build failed; its whole log: ${dir}/.next-build.log`);
  });
});
