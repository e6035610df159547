import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokensInFunctions, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';
import type { ExperimentSpec } from '../schema/experiment';
import type { WireTool } from '../schema/request';
import { catalogsOf, toWireTool } from './matrix';

// What each tool catalog costs in prompt tokens on every request that carries it (DESIGN §10.1): the
// definitions rendered the way OpenAI's chat models receive functions, counted with o200k_base (GPT-4o and
// later). An estimate for other providers, whose tokenizers differ; the relative size of two conditions'
// catalogs is what a design decision needs.

export interface CatalogCost {
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  tools: number;
  /** Characters of the tool JSON as sent (names, descriptions, parameter schemas). */
  chars: number;
  /** Estimated prompt tokens of the catalog (o200k_base, OpenAI's function rendering). */
  tokens: number;
}

export const TOKENIZER = 'o200k_base';

export function catalogCosts(spec: ExperimentSpec): CatalogCost[] {
  return [...catalogsOf(spec)].map(({ definitions, effects: _effects, ...where }) => ({ ...where, ...wireToolsCost(definitions.map(toWireTool)) }));
}

/** Size of one list of tools as sent: count, characters of the JSON, estimated prompt tokens. */
export function wireToolsCost(wire: WireTool[]): { tools: number; chars: number; tokens: number } {
  return {
    tools: wire.length,
    chars: JSON.stringify(wire).length,
    // parameters are JSON Schemas of type "object" (the spec and the tool-file reader make sure)
    tokens: estimateTokensInFunctions(wire as unknown as ChatCompletionFunctionDefinition[], countTokens),
  };
}
