import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokensInFunctions, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';
import type { Condition, ExperimentSpec } from '../spec/experiment';
import { naturalDefinitions, toWireTool } from './matrix';

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
  const out: CatalogCost[] = [];
  for (const study of spec.studies)
    for (const condition of study.conditions)
      for (const scenario of spec.scenarios)
        for (const locale of spec.locales) {
          if (!condition.tools[scenario.id]?.[locale]) continue;
          const wire = naturalDefinitions(spec, condition as Condition, scenario.id, locale).map(toWireTool);
          out.push({
            study: study.id,
            condition: condition.id,
            scenario: scenario.id,
            locale,
            tools: wire.length,
            chars: JSON.stringify(wire).length,
            // parameters are JSON Schemas of type "object" (the spec refuses anything else)
            tokens: estimateTokensInFunctions(wire as unknown as ChatCompletionFunctionDefinition[], countTokens),
          });
        }
  return out;
}
