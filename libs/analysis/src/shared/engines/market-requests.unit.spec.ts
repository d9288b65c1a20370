import { anthropicRequest } from './anthropic-engine';
import { marketInstruction } from './market-names';
import { openAiRequest } from './openai-engine';
import { perplexityRequest } from './perplexity-engine';

const de = { query: 'beste CRM', market: { country: 'DE', language: 'de' } };
const none = { query: 'best CRM' };

describe("each adapter passes a market the way its API takes it (DESIGN §17)", () => {
  it('OpenAI Responses: the web search tool’s approximate user_location, the language in instructions', () => {
    expect(openAiRequest('gpt-4.1-mini', de)).toEqual({
      model: 'gpt-4.1-mini',
      input: 'beste CRM',
      instructions: 'Answer in German (de).',
      tools: [{ type: 'web_search', user_location: { type: 'approximate', country: 'DE' } }],
    });
    expect(openAiRequest('gpt-4.1-mini', none)).toEqual({ model: 'gpt-4.1-mini', input: 'best CRM', tools: [{ type: 'web_search' }] });
    expect(openAiRequest('m', { query: 'q', market: { country: null, language: 'pt-BR' } })).toMatchObject({ instructions: 'Answer in Brazilian Portuguese (pt-BR).', tools: [{ type: 'web_search' }] });
  });

  it('Anthropic Messages: the web search tool’s user_location, the language in system', () => {
    expect(anthropicRequest('claude-sonnet-4-6', de)).toEqual({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      system: 'Answer in German (de).',
      messages: [{ role: 'user', content: 'beste CRM' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5, user_location: { type: 'approximate', country: 'DE' } }],
    });
    expect(anthropicRequest('m', none)).not.toHaveProperty('system');
    expect(anthropicRequest('m', { query: 'q', market: { country: 'FR', language: null } }).tools[0]).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 5, user_location: { type: 'approximate', country: 'FR' } });
  });

  it('Perplexity: web_search_options.user_location, search_language_filter (ISO 639-1) and a system message', () => {
    expect(perplexityRequest('sonar', de)).toEqual({
      model: 'sonar',
      messages: [
        { role: 'system', content: 'Answer in German (de).' },
        { role: 'user', content: 'beste CRM' },
      ],
      web_search_options: { user_location: { country: 'DE' } },
      search_language_filter: ['de'],
    });
    expect(perplexityRequest('sonar', none)).toEqual({ model: 'sonar', messages: [{ role: 'user', content: 'best CRM' }] });
    // A language with no two-letter code (Filipino is fil) gets no search filter, only the instruction.
    expect(perplexityRequest('sonar', { query: 'q', market: { country: null, language: 'fil' } })).not.toHaveProperty('search_language_filter');
  });

  it('Gemini: no location parameter, so country and language are said in the instruction', () => {
    expect(marketInstruction({ country: 'DE', language: 'de' }, true)).toBe('The user is in Germany (DE); answer for someone there. Answer in German (de).');
    expect(marketInstruction({ country: 'DE', language: null }, false)).toBeNull();
    expect(marketInstruction(undefined, true)).toBeNull();
  });
});
