import { createOpenAIProvider } from './openai';
import { openaiCompatibleDescriptor } from './descriptors';
import type { Provider } from './types';

export { openaiCompatibleDescriptor } from './descriptors';

export const openaiCompatibleProvider: Provider = createOpenAIProvider({ descriptor: openaiCompatibleDescriptor, maxTokensField: 'max_tokens' });
