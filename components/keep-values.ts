'use client';

import { startTransition, type FormEvent } from 'react';

/**
 * `onSubmit` for a form whose `action` comes from `useActionState`: dispatches the action itself, so React
 * does not reset the form afterwards (its automatic reset — react#29034 — empties every field and puts
 * controlled selects back on their first option, react#30580). After an error the user keeps what they
 * typed; a step that answers with more to fill in (the tools listed from an MCP server) keeps the id.
 * Without JavaScript the form still posts through its `action`.
 */
export function keepValues(dispatch: (form: FormData) => void, before?: (e: FormEvent<HTMLFormElement>) => boolean) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (before && !before(e)) return;
    const form = new FormData(e.currentTarget, (e.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(form));
  };
}
