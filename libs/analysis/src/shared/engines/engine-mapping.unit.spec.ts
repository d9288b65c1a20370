import { mapAnthropicResponse } from './anthropic-engine';
import { EngineError } from './answer-engine';
import { safeMessage, statusFailure, transportFailure } from './engine-options';
import { mapGeminiResponse, parseGoogleError } from './gemini-engine';
import { mapOpenAiResponse } from './openai-engine';
import { mapPerplexityResponse } from './perplexity-engine';

/** The EngineError `map` throws (failing when it returns or throws anything else). */
function thrown(map: () => unknown): EngineError {
  try {
    map();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return error as EngineError;
  }
  throw new Error('expected an EngineError');
}

describe('mapOpenAiResponse', () => {
  /** A Responses API body as documented for the web_search tool. */
  const response = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: 'resp_67ccd3a9da748190baa7f1570fe91ac604becb25c45c1d41',
    object: 'response',
    created_at: 1741476777,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-4.1-2025-04-14',
    output: [
      { type: 'web_search_call', id: 'ws_67ccd3acc8548190a3c5a8b2ef0e3b11', status: 'completed', action: { type: 'search', query: 'best crm' } },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      {
        type: 'message',
        id: 'msg_67ccd3acc8d48190a77525dc6de64b4104becb25c45c1d41',
        status: 'completed',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: 'HubSpot leads for small teams ([hubspot.com](https://www.hubspot.com/crm?utm_source=openai)). ',
            annotations: [
              { type: 'url_citation', start_index: 31, end_index: 90, url: 'https://www.hubspot.com/crm?utm_source=openai', title: 'Free CRM | HubSpot' },
            ],
          },
          {
            type: 'output_text',
            text: 'Pipedrive suits sales-led teams, and HubSpot again for marketing.',
            annotations: [
              { type: 'url_citation', start_index: 0, end_index: 9, url: 'https://www.pipedrive.com/en/pricing', title: 'Pipedrive pricing' },
              { type: 'url_citation', start_index: 36, end_index: 43, url: 'https://www.hubspot.com/crm?utm_source=openai', title: 'HubSpot (again)' },
              { type: 'file_citation', index: 3, file_id: 'file-abc', filename: 'notes.pdf' },
              { type: 'url_citation', start_index: 0, end_index: 1, url: 'javascript:alert(1)', title: 'not a web page' },
            ],
          },
        ],
      },
    ],
    tools: [{ type: 'web_search', search_context_size: 'medium' }],
    usage: { input_tokens: 328, input_tokens_details: { cached_tokens: 128 }, output_tokens: 356, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 684 },
    ...overrides,
  });

  it("joins the message's output text and keeps its url citations in order, each URL once", () => {
    const body = response();
    const answer = mapOpenAiResponse(body);

    expect(answer.text).toBe('HubSpot leads for small teams ([hubspot.com](https://www.hubspot.com/crm?utm_source=openai)). Pipedrive suits sales-led teams, and HubSpot again for marketing.');
    expect(answer.citations).toEqual([
      { url: 'https://www.hubspot.com/crm?utm_source=openai', title: 'Free CRM | HubSpot' },
      { url: 'https://www.pipedrive.com/en/pricing', title: 'Pipedrive pricing' },
    ]);
    expect(answer).toMatchObject({ model: 'gpt-4.1-2025-04-14', source: 'live', usage: { inputTokens: 328, cachedInputTokens: 128, outputTokens: 356 } });
    expect(answer.raw).toBe(body);
  });

  it('has no usage when the body reports none, and falls back to the requested model', () => {
    const answer = mapOpenAiResponse(response({ usage: undefined, model: undefined }), 'gpt-4.1');

    expect(answer.usage).toBeNull();
    expect(answer.model).toBe('gpt-4.1');
  });

  it('is refused on refusal content, an incomplete response or no text', () => {
    const refusal = response({ output: [{ type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: "I can't help with that." }] }] });
    expect(thrown(() => mapOpenAiResponse(refusal)).kind).toBe('refused');
    expect(thrown(() => mapOpenAiResponse(response({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } }))).kind).toBe('refused');
    expect(thrown(() => mapOpenAiResponse(response({ output: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] }))).kind).toBe('refused');
    expect(thrown(() => mapOpenAiResponse(response({ output: [{ type: 'message', content: [{ type: 'output_text', text: '  ', annotations: [] }] }] }))).kind).toBe('refused');
  });

  it('is unavailable when the response failed', () => {
    const error = thrown(() => mapOpenAiResponse(response({ status: 'failed', error: { code: 'server_error', message: 'The model failed.' } })));
    expect(error.kind).toBe('unavailable');
  });

  it('is malformed when fields are missing or of the wrong type', () => {
    for (const body of [
      null,
      'text',
      [],
      {},
      response({ output: 'nope' }),
      response({ output: [null] }),
      response({ output: [{ type: 'message', content: 'text' }] }),
      response({ output: [{ type: 'message', content: [{ type: 'output_text' }] }] }),
      response({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'x', annotations: 'none' }] }] }),
      response({ model: undefined }),
    ]) {
      expect(thrown(() => mapOpenAiResponse(body)).kind).toBe('malformed');
    }
  });
});

describe('mapAnthropicResponse', () => {
  /** A Messages API body as documented for the web search tool. */
  const message = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: 'msg_01AbCdEfGhIjKlMnOpQrStUv',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [
      { type: 'text', text: "I'll search for that." },
      { type: 'server_tool_use', id: 'srvtoolu_01WYG3ziw53XMcoyKL4XcZmE', name: 'web_search', input: { query: 'best crm small business' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_01WYG3ziw53XMcoyKL4XcZmE',
        content: [{ type: 'web_search_result', url: 'https://www.hubspot.com/crm', title: 'Free CRM', encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2Y...', page_age: 'April 30, 2025' }],
      },
      { type: 'text', text: ' Based on the results, ' },
      {
        type: 'text',
        text: 'HubSpot offers a free tier',
        citations: [
          { type: 'web_search_result_location', url: 'https://www.hubspot.com/crm', title: 'Free CRM', encrypted_index: 'Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm..', cited_text: 'HubSpot CRM is free...' },
        ],
      },
      { type: 'text', text: ' and ' },
      {
        type: 'text',
        text: 'Pipedrive starts at $14',
        citations: [
          { type: 'web_search_result_location', url: 'https://www.pipedrive.com/en/pricing', title: 'Pricing', encrypted_index: 'Eo8B..', cited_text: 'Essential $14...' },
          { type: 'web_search_result_location', url: 'https://www.hubspot.com/crm', title: 'Free CRM again', encrypted_index: 'Eo8C..', cited_text: 'compare...' },
          { type: 'char_location', document_index: 0, document_title: 'notes', start_char_index: 0, end_char_index: 4, cited_text: 'text' },
        ],
      },
      { type: 'text', text: '.' },
    ],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 6039, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 931, server_tool_use: { web_search_requests: 1 } },
    ...overrides,
  });

  it('joins the text blocks and keeps their web search citations in order, each URL once', () => {
    const body = message();
    const answer = mapAnthropicResponse(body);

    expect(answer.text).toBe("I'll search for that. Based on the results, HubSpot offers a free tier and Pipedrive starts at $14.");
    expect(answer.citations).toEqual([
      { url: 'https://www.hubspot.com/crm', title: 'Free CRM' },
      { url: 'https://www.pipedrive.com/en/pricing', title: 'Pricing' },
    ]);
    expect(answer).toMatchObject({ model: 'claude-sonnet-4-6', source: 'live', usage: { inputTokens: 8139, cachedInputTokens: 2000, outputTokens: 931 } });
    expect(answer.raw).toBe(body);
  });

  it('is refused on a refusal stop or no text', () => {
    expect(thrown(() => mapAnthropicResponse(message({ stop_reason: 'refusal' }))).kind).toBe('refused');
    expect(thrown(() => mapAnthropicResponse(message({ content: [{ type: 'server_tool_use', id: 'x', name: 'web_search', input: {} }] }))).kind).toBe('refused');
    expect(thrown(() => mapAnthropicResponse(message({ content: [] }))).kind).toBe('refused');
  });

  it('is malformed when fields are missing or of the wrong type', () => {
    for (const body of [
      null,
      {},
      { type: 'error', error: { type: 'api_error', message: 'x' } },
      message({ content: 'text' }),
      message({ content: [42] }),
      message({ content: [{ type: 'text' }] }),
      message({ content: [{ type: 'text', text: 'x', citations: {} }] }),
      message({ model: undefined }),
    ]) {
      expect(thrown(() => mapAnthropicResponse(body)).kind).toBe('malformed');
    }
  });
});

describe('mapGeminiResponse', () => {
  const redirect = (token: string): string => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ${token}`;
  /** A GenerateContentResponse body as documented for Grounding with Google Search. */
  const response = (overrides: Record<string, unknown> = {}, candidate: Record<string, unknown> = {}): Record<string, unknown> => ({
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ text: 'Let me think about CRMs.', thought: true }, { text: 'HubSpot has a free tier. ' }, { text: 'Pipedrive starts at $14.' }],
        },
        finishReason: 'STOP',
        groundingMetadata: {
          webSearchQueries: ['best crm small business'],
          searchEntryPoint: { renderedContent: '<style>...</style>' },
          groundingChunks: [
            { web: { uri: redirect('Hn7w'), title: 'hubspot.com' } },
            { web: { uri: redirect('Qx3p'), title: 'pipedrive.com' } },
            { web: { uri: redirect('Zz9a'), title: 'HubSpot.com' } },
            { web: { uri: 'https://docs.example.org/crm', title: 'Example docs' } },
            { web: { uri: redirect('Kk1b'), title: 'A page title, not a domain' } },
            { retrievedContext: { uri: 'gs://bucket/file', title: 'file' } },
          ],
          groundingSupports: [
            { segment: { startIndex: 0, endIndex: 24, text: 'HubSpot has a free tier.' }, groundingChunkIndices: [0, 2], confidenceScores: [0.95, 0.8] },
            { segment: { startIndex: 25, endIndex: 49, text: 'Pipedrive starts at $14.' }, groundingChunkIndices: [1], confidenceScores: [0.9] },
          ],
        },
        ...candidate,
      },
    ],
    usageMetadata: { promptTokenCount: 12, cachedContentTokenCount: 4, candidatesTokenCount: 48, thoughtsTokenCount: 10, totalTokenCount: 200, toolUsePromptTokenCount: 130 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'mAitaJWVJ8DfqtsP8pmS0Qc',
    ...overrides,
  });

  it("joins the first candidate's answer parts (not its thoughts) and keys redirect citations on their domain", () => {
    const body = response();
    const answer = mapGeminiResponse(body);

    expect(answer.text).toBe('HubSpot has a free tier. Pipedrive starts at $14.');
    expect(answer.citations).toEqual([
      { url: 'https://hubspot.com/', title: 'hubspot.com' },
      { url: 'https://pipedrive.com/', title: 'pipedrive.com' },
      { url: 'https://docs.example.org/crm', title: 'Example docs' },
      // A redirect whose title is no domain stays the redirect: there is nothing better to key it on.
      { url: redirect('Kk1b'), title: 'A page title, not a domain' },
    ]);
    expect(answer).toMatchObject({ model: 'gemini-2.5-flash', source: 'live', usage: { inputTokens: 142, cachedInputTokens: 4, outputTokens: 58 } });
    expect(answer.raw).toBe(body);
    // The redirects stay in raw.
    expect(JSON.stringify(answer.raw)).toContain(redirect('Zz9a'));
  });

  it('has no citations without grounding, and falls back to the requested model', () => {
    const answer = mapGeminiResponse(response({ modelVersion: undefined }, { groundingMetadata: undefined }), 'gemini-2.5-pro');

    expect(answer.citations).toEqual([]);
    expect(answer.model).toBe('gemini-2.5-pro');
  });

  it('is refused on a safety finish, a blocked prompt, no candidates or no text', () => {
    expect(thrown(() => mapGeminiResponse(response({}, { finishReason: 'SAFETY', content: undefined }))).kind).toBe('refused');
    expect(thrown(() => mapGeminiResponse(response({}, { finishReason: 'RECITATION' }))).kind).toBe('refused');
    const blocked = { promptFeedback: { blockReason: 'SAFETY', safetyRatings: [] }, usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 }, modelVersion: 'gemini-2.5-flash' };
    expect(thrown(() => mapGeminiResponse(blocked)).kind).toBe('refused');
    expect(thrown(() => mapGeminiResponse(response({ candidates: [] }))).kind).toBe('refused');
    expect(thrown(() => mapGeminiResponse(response({}, { content: { role: 'model' } }))).kind).toBe('refused');
    expect(thrown(() => mapGeminiResponse(response({}, { content: { role: 'model', parts: [{ text: 'only a thought', thought: true }] } }))).kind).toBe('refused');
  });

  it('keeps a MAX_TOKENS answer', () => {
    expect(mapGeminiResponse(response({}, { finishReason: 'MAX_TOKENS' })).text).toBe('HubSpot has a free tier. Pipedrive starts at $14.');
  });

  it('is malformed when fields are missing or of the wrong type', () => {
    for (const body of [
      null,
      {},
      { kind: 'not a GenerateContentResponse' },
      response({ candidates: 'none' }),
      response({ candidates: [7] }),
      response({}, { content: 'text' }),
      response({}, { content: { parts: 'text' } }),
      response({}, { content: { parts: [null] } }),
      response({}, { groundingMetadata: { groundingChunks: {} } }),
    ]) {
      expect(thrown(() => mapGeminiResponse(body, 'gemini-2.5-flash')).kind).toBe('malformed');
    }
    expect(thrown(() => mapGeminiResponse(response({ modelVersion: undefined }))).kind).toBe('malformed');
  });
});

describe('parseGoogleError', () => {
  it("reads the message and a 429's RetryInfo delay", () => {
    const body = {
      error: {
        code: 429,
        message: 'You exceeded your current quota.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' },
        ],
      },
    };
    expect(parseGoogleError(JSON.stringify(body))).toEqual({ message: 'RESOURCE_EXHAUSTED: You exceeded your current quota.', retryDelayMs: 37_000 });
    body.error.details[1] = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' };
    expect(parseGoogleError(JSON.stringify(body)).retryDelayMs).toBe(1500);
  });

  it('has no delay without RetryInfo, and keeps a body that is not JSON as the message', () => {
    expect(parseGoogleError('{"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}')).toEqual({ message: 'INTERNAL: Internal error', retryDelayMs: null });
    expect(parseGoogleError('<html>502</html>')).toEqual({ message: '<html>502</html>', retryDelayMs: null });
  });
});

describe('mapPerplexityResponse', () => {
  /** A chat completion body as documented for the Sonar API. */
  const completion = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
    model: 'sonar-pro',
    created: 1743000000,
    usage: { prompt_tokens: 14, completion_tokens: 212, total_tokens: 226, search_context_size: 'low', cost: { total_cost: 0.0061 } },
    citations: ['https://www.hubspot.com/crm', 'https://www.pipedrive.com/en/pricing', 'https://www.hubspot.com/crm'],
    search_results: [
      { title: 'Free CRM | HubSpot', url: 'https://www.hubspot.com/crm', date: '2025-03-20', last_updated: '2025-04-02', snippet: '...' },
      { title: 'Pipedrive pricing', url: 'https://www.pipedrive.com/en/pricing', date: null },
      { title: 'HubSpot again', url: 'https://www.hubspot.com/crm' },
    ],
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'HubSpot is free [1]. Pipedrive starts at $14 [2].' } }],
    ...overrides,
  });

  it('takes the first choice and the search results in order, each URL once', () => {
    const body = completion();
    const answer = mapPerplexityResponse(body);

    expect(answer.text).toBe('HubSpot is free [1]. Pipedrive starts at $14 [2].');
    expect(answer.citations).toEqual([
      { url: 'https://www.hubspot.com/crm', title: 'Free CRM | HubSpot' },
      { url: 'https://www.pipedrive.com/en/pricing', title: 'Pipedrive pricing' },
    ]);
    expect(answer).toMatchObject({ model: 'sonar-pro', source: 'live', usage: { inputTokens: 14, cachedInputTokens: null, outputTokens: 212 } });
    expect(answer.raw).toBe(body);
  });

  it('falls back to the citation URLs, untitled, without search results', () => {
    const answer = mapPerplexityResponse(completion({ search_results: undefined }));

    expect(answer.citations).toEqual([
      { url: 'https://www.hubspot.com/crm', title: null },
      { url: 'https://www.pipedrive.com/en/pricing', title: null },
    ]);
  });

  it("drops a reasoning model's <think> block and reads content given as parts", () => {
    const thinking = completion({ choices: [{ index: 0, message: { role: 'assistant', content: '<think>\nThe user wants...\n</think>\n\nHubSpot is free.' } }] });
    expect(mapPerplexityResponse(thinking).text).toBe('HubSpot is free.');
    const parts = completion({ choices: [{ index: 0, message: { role: 'assistant', content: [{ type: 'text', text: 'Hub' }, { type: 'text', text: 'Spot.' }] } }] });
    expect(mapPerplexityResponse(parts).text).toBe('HubSpot.');
  });

  it('is refused on empty content or no choices', () => {
    expect(thrown(() => mapPerplexityResponse(completion({ choices: [{ index: 0, message: { role: 'assistant', content: '' } }] }))).kind).toBe('refused');
    expect(thrown(() => mapPerplexityResponse(completion({ choices: [{ index: 0, message: { role: 'assistant', content: null } }] }))).kind).toBe('refused');
    expect(thrown(() => mapPerplexityResponse(completion({ choices: [] }))).kind).toBe('refused');
  });

  it('is malformed when fields are missing or of the wrong type', () => {
    for (const body of [
      null,
      {},
      completion({ choices: 'none' }),
      completion({ choices: [42] }),
      completion({ choices: [{ index: 0 }] }),
      completion({ choices: [{ index: 0, message: { content: { text: 'x' } } }] }),
      completion({ model: undefined }),
    ]) {
      expect(thrown(() => mapPerplexityResponse(body)).kind).toBe('malformed');
    }
  });
});

describe('error mapping helpers', () => {
  const KEY = 'pplx-SECRET-key-123456';

  it('removes the key from messages and bounds them', () => {
    expect(safeMessage(`Invalid key ${KEY} (${KEY})`, KEY)).toBe('Invalid key [redacted] ([redacted])');
    expect(safeMessage('x'.repeat(2000), KEY).length).toBeLessThanOrEqual(501);
  });

  it('maps HTTP statuses to failure kinds', () => {
    expect(statusFailure('claude', 429, '2', 'slow down', KEY)).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000, status: 429 });
    expect(statusFailure('gemini', 429, null, 'slow down', KEY, 37_000)).toMatchObject({ kind: 'rate_limited', retryAfterMs: 37_000 });
    expect(statusFailure('claude', 429, null, 'slow down', KEY)).toMatchObject({ kind: 'rate_limited', retryAfterMs: null });
    expect(statusFailure('claude', 529, null, 'Overloaded', KEY)).toMatchObject({ kind: 'unavailable', status: 529 });
    expect(statusFailure('chatgpt', 503, '5', 'down', KEY)).toMatchObject({ kind: 'unavailable', retryAfterMs: 5000 });
    expect(statusFailure('chatgpt', 408, null, 'timeout', KEY).kind).toBe('timeout');
    expect(statusFailure('chatgpt', 400, null, 'bad', KEY).kind).toBe('rejected');
    const rejected = statusFailure('perplexity', 401, null, `bad key ${KEY}`, KEY);
    expect(rejected.kind).toBe('rejected');
    expect(rejected.message).not.toContain(KEY);
  });

  it('maps failures without a status by what they are, whatever realm they come from', () => {
    const abort = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    const headersTimeout = new TypeError('fetch failed', { cause: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) });

    expect(transportFailure('gemini', abort, false, KEY).kind).toBe('timeout');
    expect(transportFailure('gemini', refused, false, KEY).kind).toBe('unavailable');
    expect(transportFailure('gemini', refused, true, KEY).kind).toBe('timeout');
    expect(transportFailure('gemini', headersTimeout, false, KEY).kind).toBe('timeout');
    expect(transportFailure('gemini', new SyntaxError('Unexpected token <'), false, KEY).kind).toBe('malformed');
    expect(transportFailure('gemini', 'a string', false, KEY).kind).toBe('unavailable');
    const own = new EngineError('refused', 'no');
    expect(transportFailure('gemini', own, true, KEY)).toBe(own);
  });
});
