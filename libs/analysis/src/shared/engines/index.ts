export * from './answer-engine';
export type { LiveEngineOptions } from './engine-options';
export { OpenAiEngine, mapOpenAiResponse } from './openai-engine';
export { AnthropicEngine, mapAnthropicResponse } from './anthropic-engine';
export { GeminiEngine, mapGeminiResponse } from './gemini-engine';
export { PerplexityEngine, mapPerplexityResponse } from './perplexity-engine';
