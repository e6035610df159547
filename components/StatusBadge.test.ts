import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StatusBadge } from './StatusBadge';
import { RunStatus } from '@/lib/schema/run-status';

describe('StatusBadge', () => {
  it('gives a run that completed with unresolved trials its own badge, in words', () => {
    const html = renderToStaticMarkup(createElement(StatusBadge, { status: 'completed_with_unresolved', testId: 'run-status' }));
    expect(html).toBe(
      '<span class="badge status-completed_with_unresolved" data-testid="run-status" data-status="completed_with_unresolved">completed with unresolved trials</span>',
    );
    expect(renderToStaticMarkup(createElement(StatusBadge, { status: 'completed' }))).toContain('>completed</span>');
  });

  it('has a style for every run status', async () => {
    const { readFile } = await import('node:fs/promises');
    const css = await readFile(new URL('../app/globals.css', import.meta.url), 'utf8');
    for (const s of RunStatus.options) expect(css, s).toContain(`.status-${s}`);
  });
});
