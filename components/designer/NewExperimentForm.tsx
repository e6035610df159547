'use client';

import { useActionState, useState } from 'react';
import { newExperimentAction, type FormState } from './actions';
import { IssueList } from '../IssueList';
import { keepValues } from '../keep-values';

const initial: FormState = { message: null, issues: [] };

/**
 * New experiment as a designer draft: empty, a template, a BFCL category, an MCP server or pasted tools.
 * `mcp`: the servers an admin configured (by name), and whether this user may start a command of their own
 * and reach any address (the server action decides again: lib/mcp/policy.ts).
 */
export function NewExperimentForm({
  templates,
  categories,
  mcp,
}: {
  templates: { id: string; name: string }[];
  categories: string[];
  mcp: { servers: string[]; anyCommand: boolean };
}) {
  const [state, action, pending] = useActionState(newExperimentAction, initial);
  const [source, setSource] = useState('empty');
  const listed = state.listed;
  return (
    <form action={action} onSubmit={keepValues(action)} className="panel" aria-label="New experiment">
      <h2 style={{ marginTop: 0 }}>New experiment</h2>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="new-id">Id</label>
          <input id="new-id" name="id" placeholder="my-study" required />
        </div>
        <div className="field">
          <label htmlFor="new-name">Name</label>
          <input id="new-name" name="name" placeholder="What the study asks" />
        </div>
        <div className="field">
          <label htmlFor="new-source">Start from</label>
          <select id="new-source" name="source" value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="empty">nothing (empty)</option>
            <option value="template">a built-in template</option>
            <option value="bfcl">a BFCL category</option>
            {mcp.servers.length > 0 && <option value="mcp-listed">an MCP server an admin configured</option>}
            {mcp.anyCommand && <option value="mcp-stdio">an MCP server (stdio command)</option>}
            <option value="mcp-url">an MCP server (Streamable HTTP URL)</option>
            <option value="tools-json">a pasted tools/list or OpenAI tools JSON</option>
          </select>
        </div>
      </div>
      {source === 'template' && (
        <div className="field">
          <label htmlFor="new-template">Template</label>
          <select id="new-template" name="template">
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {source === 'bfcl' && (
        <div className="form-grid">
          <div className="field">
            <label htmlFor="new-category">BFCL category</label>
            <select id="new-category" name="category">
              {categories.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="new-limit">First N questions</label>
            <input id="new-limit" name="limit" type="number" min={1} max={200} defaultValue={5} />
          </div>
        </div>
      )}
      {source === 'mcp-listed' && (
        <div className="field">
          <label htmlFor="new-server">
            Configured server <span className="hint">(started by the server with the command and arguments an admin set)</span>
          </label>
          <select id="new-server" name="server">
            {mcp.servers.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </div>
      )}
      {source === 'mcp-stdio' && (
        <div className="field">
          <label htmlFor="new-command">
            Command <span className="hint">(run as a child process with a time limit; it inherits no provider key)</span>
          </label>
          <input id="new-command" name="command" placeholder="node path/to/server.js --flag" style={{ width: '100%' }} />
        </div>
      )}
      {source === 'mcp-url' && (
        <div className="field">
          <label htmlFor="new-url">
            URL {!mcp.anyCommand && <span className="hint">(public addresses only, unless an admin listed it: not loopback, private or link-local)</span>}
          </label>
          <input id="new-url" name="url" placeholder="http://127.0.0.1:3001/mcp" style={{ width: '100%' }} />
        </div>
      )}
      {source === 'tools-json' && (
        <div className="field">
          <label htmlFor="new-json">tools/list or OpenAI tools JSON</label>
          <textarea id="new-json" name="json" rows={8} placeholder='{"tools": [{"name": "…", "description": "…", "inputSchema": {"type": "object"}}]}' />
        </div>
      )}
      {listed && (
        <fieldset className="panel" data-testid="mcp-tools">
          <legend>
            {listed.tools.length} tools{listed.server ? ` from ${listed.server}` : ''}: pick the ones to study
          </legend>
          <input type="hidden" name="snapshotId" value={listed.snapshotId} />
          {listed.tools.map((t) => (
            <label key={t.name} style={{ fontWeight: 400 }}>
              <input type="checkbox" name="pick" value={t.name} defaultChecked /> <span className="mono">{t.name}</span> <span className="badge">{t.effect}</span>{' '}
              <span className="small muted">{t.description}</span>
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Working…' : listed ? 'Create the draft with these tools' : source.startsWith('mcp') || source === 'tools-json' ? 'List tools' : 'Create draft'}
      </button>
      <IssueList message={state.message} issues={state.issues} testId="new-errors" />
    </form>
  );
}
