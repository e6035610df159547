import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { createDraft } from '../db/drafts';
import { countToolSnapshots, getToolSnapshot, importServerTools, importToolFile } from '../experiments/tool-snapshots';
import { SpecError } from '../schema/common';
import { experimentFromTools, scenarioFromTools } from './scenario';
import { ToolFileError } from './tools';

// What PostgreSQL cannot store, and drafts over their limit, are refused at the door with
// their reason — not a generic 500 (22P05 when the NUL reached a jsonb column; an uncaught ZodError).

const dir = mkdtempSync(join(tmpdir(), 'tclab-unstorable-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pool().query(`DELETE FROM experiment_drafts WHERE slug LIKE 'unstorable-%'`);
  await closeDb();
});

// a real MCP server over stdio (newline-delimited JSON-RPC), written out plainly: no SDK server would list
// a name with a NUL, a hostile or broken one does
const server = join(dir, 'nul-server.mjs');
writeFileSync(
  server,
  `import { createInterface } from 'node:readline';
const tools = [
  { name: 'fine_tool', description: 'Looks up one order by its id and returns its lines.', inputSchema: { type: 'object' } },
  { name: 'bad\\u0000name', description: 'Looks up one invoice by its number.', inputSchema: { type: 'object' } },
];
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'nul-server', version: '1.0.0' } } });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools } });
  else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
});
`,
);

describe('unstorable text and the draft limit at the import doors', () => {
  it('a server listing a tool whose name holds a NUL: refused at listing, naming the tool, nothing stored', async () => {
    const before = await countToolSnapshots();
    const listing = importServerTools({ kind: 'stdio', command: process.execPath, args: [server] }, { timeoutMs: 20_000 });
    await expect(listing).rejects.toThrow(ToolFileError);
    await expect(importServerTools({ kind: 'stdio', command: process.execPath, args: [server] }, { timeoutMs: 20_000 })).rejects.toThrow(
      /the tool "bad\\u0000name" at tools\[1\] cannot be stored: tools\[1\]\.name: contains a NUL character/,
    );
    expect(await countToolSnapshots()).toBe(before);
  });

  it('a pick whose draft passes the 2 MB limit: the limit named (SpecError), no draft stored', async () => {
    // 30 tools of 80 kB each: 2.4 MB in the draft, under the 5 MB of a pasted file
    const long = 'Looks up one order by its id and returns its lines and totals. '.repeat(1250);
    const tools = Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, description: `${i} ${long}`, inputSchema: { type: 'object' } }));
    const snap = await getToolSnapshot((await importToolFile({ tools }, 'large')).id);
    // the door's step 2 (components/designer/actions.ts): the pick into an experiment, then the draft
    const picked = scenarioFromTools(snap!.tools, { id: 'tools', title: 'Large', pick: tools.map((t) => t.name), snapshot: snap! });
    const content = experimentFromTools(picked, { id: 'unstorable-large', name: 'large' }) as unknown as Record<string, unknown>;
    const draft = createDraft('unstorable-large', content);
    await expect(draft).rejects.toThrow(SpecError);
    await expect(createDraft('unstorable-large', content)).rejects.toThrow('draft: a draft holds at most 2 MB of JSON');
    const stored = await pool().query(`SELECT 1 FROM experiment_drafts WHERE slug = 'unstorable-large'`);
    expect(stored.rowCount).toBe(0);
    // a pick under the limit is a draft
    const small = experimentFromTools(scenarioFromTools(snap!.tools, { id: 'tools', title: 'Small', pick: ['tool_1'], snapshot: snap! }), {
      id: 'unstorable-small',
      name: 'small',
    }) as unknown as Record<string, unknown>;
    expect((await createDraft('unstorable-small', small)).slug).toBe('unstorable-small');
  });
});
