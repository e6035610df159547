import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokensInFunctions, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';
import type { ExperimentSpec } from '../schema/experiment';
import type { WireTool } from '../schema/request';
import { catalogsOf, toWireTool } from './matrix';

// What each tool catalog costs in prompt tokens on every request that carries it (docs/linter.md): the
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

export function catalogCosts(spec: ExperimentSpec, tick?: () => void): CatalogCost[] {
  return [...catalogsOf(spec)].map(({ definitions, effects: _effects, ...where }) => ({ ...where, ...wireToolsCost(definitions.map(toWireTool), tick) }));
}

/**
 * Size of one list of tools as sent: count, characters of the JSON, estimated prompt tokens. `tick` is called
 * between the pieces counted (a deadline's check).
 */
export function wireToolsCost(wire: WireTool[], tick: () => void = () => {}): { tools: number; chars: number; tokens: number } {
  return {
    tools: wire.length,
    chars: JSON.stringify(wire).length,
    // parameters are JSON Schemas of type "object" (the spec and the tool-file reader make sure)
    tokens: estimateTokensInFunctions(wire as unknown as ChatCompletionFunctionDefinition[], (text) => boundedTokenCount(text, tick)),
  };
}

// The tokenizer's byte-pair merging is quadratic (or worse) in the length of one pre-token, and a word is one
// pre-token: a 40 kB word took 3.5 s, a 1 MB one would take hours. A run of more than LONG_RUN characters
// without white space is counted in slices of LONG_RUN (an estimate, off by a token or so per slice; no
// real description has such a run). Long texts are counted in pieces of about PIECE characters, cut where
// the tokenizer's pre-tokens end anyway (before a letter that starts a line, or a space before a letter that
// follows a non-space), so the sum is exactly the whole's count (tokens.test.ts) and `tick` runs between them.
const LONG_RUN = 256;
const PIECE = 16_384;

export function boundedTokenCount(text: string, tick: () => void = () => {}, piece = PIECE): number {
  let total = 0;
  let start = 0;
  const n = text.length;
  const isLetter = (i: number) => {
    const c = text.charCodeAt(i);
    return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  };
  const isSpace = (i: number) => {
    const c = text.charCodeAt(i);
    return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(text[i]));
  };
  let runStart = -1; // the start of the current run without white space
  for (let i = 0; i <= n; i++) {
    if (i === n || isSpace(i)) {
      if (runStart >= 0 && i - runStart > LONG_RUN) {
        // the text before the run, then the run in slices
        total += countPiece(text.slice(start, runStart), tick);
        for (let s = runStart; s < i; s += LONG_RUN) total += countPiece(text.slice(s, Math.min(i, s + LONG_RUN)), tick);
        start = i;
      }
      runStart = -1;
      if (i === n) break;
      const cut = i - start >= piece && i + 1 < n && isLetter(i + 1) && (text[i] === '\n' || (text[i] === ' ' && i > 0 && !isSpace(i - 1)));
      if (cut) {
        total += countPiece(text.slice(start, text[i] === '\n' ? i + 1 : i), tick);
        start = text[i] === '\n' ? i + 1 : i;
      }
    } else if (runStart < 0) runStart = i;
  }
  return total + countPiece(text.slice(start), tick);
}

function countPiece(s: string, tick: () => void): number {
  tick();
  return s ? countTokens(s) : 0;
}
