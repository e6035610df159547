// The trace importers, one per format (docs/traces.md): each reads lines and yields, for every record it
// read, a candidate, a refusal with its reason, or a skip.
import type { ImportItem, TraceFormat } from '../schema/trace-candidate';
import type { Line } from './common';
import { readAnthropicLog } from './anthropic-log';
import { readGeminiLog } from './gemini-log';
import { readGenAiOtlp } from './genai';
import { readOpenAILog } from './openai-log';
import { readOpenInferenceOtlp } from './openinference';
import { readOpenLlmetryOtlp } from './openllmetry';

export type Importer = (lines: AsyncIterable<Line>, file: string) => AsyncGenerator<ImportItem>;

export const IMPORTERS: Record<TraceFormat, Importer> = {
  otlp: readGenAiOtlp,
  openinference: readOpenInferenceOtlp,
  openllmetry: readOpenLlmetryOtlp,
  'openai-log': readOpenAILog,
  'anthropic-log': readAnthropicLog,
  'gemini-log': readGeminiLog,
};

export { fileLines, chunkLines, type Line } from './common';
