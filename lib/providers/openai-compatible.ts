import { createOpenAIProvider } from './openai';
import { openaiCompatibleDescriptor } from './vendor-descriptors';
import type { Provider } from './types';

export { openaiCompatibleDescriptor } from './vendor-descriptors';

export const openaiCompatibleProvider: Provider = createOpenAIProvider({ descriptor: openaiCompatibleDescriptor, maxTokensField: 'max_tokens' });
