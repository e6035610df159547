import type { ProviderRequest, ToolSearchMechanism, WireTool } from '../schema/request';
import { INVOICE_TOOLS, selectionRequest } from './provider-fixtures';

// Requests for the vendor tool search tests (lib/providers/tool-search-*.itest.ts): the invoice tools, two
// GitHub distractors, and the needed tool either as written or without one word of the task.

export const [LOOKUP, PAY] = INVOICE_TOOLS as [WireTool, WireTool];
const tool = (name: string, description: string): WireTool => ({ name, description, parameters: { type: 'object', properties: {} } });
export const DISTRACTORS = [tool('create_issue', 'Create a new issue in a GitHub repository.'), tool('list_commits', 'List commits of a branch in a GitHub repository.')];
/** The needed tool, written without one word of the task ("What is the status of invoice INV-2041?"). */
export const OPAQUE_LOOKUP: WireTool = {
  ...LOOKUP,
  name: 'fetch_bill_state',
  description: 'Returns a bill’s state by its reference.',
  parameters: { type: 'object', properties: { ref: { type: 'string' } } },
};

export function searchRequest(mechanism: ToolSearchMechanism, needed: WireTool = LOOKUP): ProviderRequest {
  const tools = [PAY, ...DISTRACTORS, needed];
  return { ...selectionRequest(tools), toolSearch: { mechanism, deferred: [...DISTRACTORS, needed].map((t) => t.name) } };
}
