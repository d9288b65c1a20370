import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultAnswer, type FakeAnswer, type FakeProvider, type FakeProviders, startFakeProviders } from '../../../../../test/support/fake-providers';
import { type AnswerEngine, type EngineCitation, EngineError, type EngineQuestion } from './answer-engine';
import type { LiveEngineOptions } from './engine-options';
import { AnthropicEngine, GeminiEngine, OpenAiEngine, PerplexityEngine } from './index';
import { MAX_BODY_BYTES } from './perplexity-engine';

/** The official SDKs (and Perplexity's HTTP API) against local fakes of each provider's wire format. */

const KEY = 'sk-test-0123456789-SECRET-abcdef';
const QUERY = 'best project management tool for small agencies';

interface Case {
  readonly name: string;
  readonly model: string;
  fake(fakes: FakeProviders): FakeProvider;
  engine(options: LiveEngineOptions): AnswerEngine;
  /** The key as the request carried it in the provider's auth header. */
  sentKey(headers: IncomingHttpHeaders): string | undefined;
  /** What the body must hold for the engine to search the web. */
  expectSearchRequest(request: { path: string; body: unknown }): void;
  /** The citations expected from the fake's answer. */
  citations(answer: FakeAnswer): EngineCitation[];
}

const bearer = (headers: IncomingHttpHeaders): string | undefined => headers.authorization?.replace(/^Bearer /, '');
/** The fake's citations, each URL once with its first title. */
const asCited = (answer: FakeAnswer): EngineCitation[] =>
  answer.citations.filter((c, i) => answer.citations.findIndex((d) => d.url === c.url) === i).map((c) => ({ url: c.url, title: c.title }));

const cases: Case[] = [
  {
    name: 'chatgpt (OpenAI Responses API)',
    model: 'gpt-4.1',
    fake: (fakes) => fakes.openai,
    engine: (options) => new OpenAiEngine(options),
    sentKey: bearer,
    expectSearchRequest: ({ path, body }) => {
      expect(path).toBe('/v1/responses');
      expect(body).toEqual({ model: 'gpt-4.1', input: QUERY, tools: [{ type: 'web_search' }] });
    },
    citations: asCited,
  },
  {
    name: 'claude (Anthropic Messages API)',
    model: 'claude-sonnet-4-6',
    fake: (fakes) => fakes.anthropic,
    engine: (options) => new AnthropicEngine(options),
    // This SDK version sends the key as a bearer token; the API also takes it as x-api-key.
    sentKey: (headers) => (typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : bearer(headers)),
    expectSearchRequest: ({ path, body }) => {
      expect(path).toBe('/v1/messages');
      expect(body).toMatchObject({
        model: 'claude-sonnet-4-6',
        max_tokens: 2048,
        messages: [{ role: 'user', content: QUERY }],
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
      });
    },
    citations: asCited,
  },
  {
    name: 'gemini (Gemini API generateContent)',
    model: 'gemini-2.5-flash',
    fake: (fakes) => fakes.gemini,
    engine: (options) => new GeminiEngine(options),
    sentKey: (headers) => (typeof headers['x-goog-api-key'] === 'string' ? headers['x-goog-api-key'] : undefined),
    expectSearchRequest: ({ path, body }) => {
      expect(path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: QUERY }] }], tools: [{ googleSearch: {} }] });
    },
    // Grounding chunks are redirects titled with the source's domain: the citation is keyed on the domain.
    citations: (answer) =>
      [...new Set(answer.citations.map((c) => new URL(c.url).hostname.replace(/^www\./, '')))].map((domain) => ({ url: `https://${domain}/`, title: domain })),
  },
  {
    name: 'perplexity (chat completions HTTP API)',
    model: 'sonar-pro',
    fake: (fakes) => fakes.perplexity,
    engine: (options) => new PerplexityEngine(options),
    sentKey: bearer,
    // Sonar models search on every request: there is no tool to ask for.
    expectSearchRequest: ({ path, body }) => {
      expect(path).toBe('/chat/completions');
      expect(body).toEqual({ model: 'sonar-pro', messages: [{ role: 'user', content: QUERY }] });
    },
    citations: asCited,
  },
];

const question = (overrides: Partial<EngineQuestion> = {}): EngineQuestion => ({ query: QUERY, askedAt: new Date(), entities: [], ...overrides });

/** The EngineError `promise` rejects with (failing when it resolves or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected an EngineError, got an answer: ${JSON.stringify(outcome.value).slice(0, 200)}`);
  expect(outcome.error).toBeInstanceOf(EngineError);
  return outcome.error as EngineError;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let fakes: FakeProviders;

beforeAll(async () => {
  fakes = await startFakeProviders();
});

afterAll(async () => {
  await fakes.close();
});

describe.each(cases)('$name', (c) => {
  let fake: FakeProvider;
  let engine: AnswerEngine;
  const options = (overrides: Partial<LiveEngineOptions> = {}): LiveEngineOptions => ({
    apiKey: KEY,
    model: c.model,
    baseUrl: fake.baseUrl,
    timeoutMs: 5_000,
    ...overrides,
  });

  beforeEach(() => {
    fake = c.fake(fakes);
    fake.reset();
    engine = c.engine(options());
  });

  it('answers with the text, the citations in order each URL once, the model and the usage', async () => {
    const answer = await engine.ask(question());
    const expected = defaultAnswer(QUERY);

    expect(engine.source).toBe('live');
    expect(answer.source).toBe('live');
    expect(answer.text).toBe(expected.text);
    // The fake cites the first source twice, as engines do.
    expect(answer.citations).toEqual(c.citations(expected));
    expect(new Set(answer.citations.map((x) => x.url)).size).toBe(answer.citations.length);
    expect(answer.model).toBe(c.model);
    expect(answer.usage?.inputTokens).toBeGreaterThan(0);
    expect(answer.usage?.outputTokens).toBeGreaterThan(0);
    expect(answer.raw).toEqual(expect.any(Object));
    expect(answer.raw).not.toHaveProperty('sdkHttpResponse');
  });

  it("reads the tokens from the provider's own usage fields (cached input counted in the input)", async () => {
    fake.setUsage({ input: 1200, cachedInput: c.name.startsWith('perplexity') ? 0 : 200, output: 345 });
    const answer = await engine.ask(question());
    // Perplexity has no prompt cache: it reports no cached figure.
    expect(answer.usage).toEqual({ inputTokens: 1200, cachedInputTokens: c.name.startsWith('perplexity') ? null : 200, outputTokens: 345 });
  });

  it('sends the key in the auth header and asks for web search', async () => {
    await engine.ask(question());

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request.method).toBe('POST');
    expect(c.sentKey(request.headers)).toBe(KEY);
    c.expectSearchRequest(request);
  });

  it('maps the citations of another answer, duplicates removed', async () => {
    const custom: FakeAnswer = {
      text: 'Zeta leads the category. Eta follows closely. Theta is new.',
      citations: [
        { url: 'https://zeta.dev/review', title: 'Zeta review' },
        { url: 'https://eta.org/', title: 'Eta' },
        { url: 'https://zeta.dev/review', title: 'Zeta review again' },
        { url: 'https://news.theta.co.uk/launch', title: 'Theta launch' },
      ],
    };
    fake.setAnswer(() => custom);

    const answer = await engine.ask(question());

    expect(answer.text).toBe(custom.text);
    expect(answer.citations).toEqual(c.citations(custom));
  });

  it('maps a 429 to rate_limited with the Retry-After delay, without retrying itself', async () => {
    fake.script({ status: 429, retryAfter: '2' });

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(2000);
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it('maps a 500 to unavailable', async () => {
    fake.script({ status: 500 });

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('unavailable');
    expect(error.status).toBe(500);
    expect(fake.requests).toHaveLength(1);
  });

  it('maps a refused connection to unavailable', async () => {
    const port = await closedPort();
    const base = new URL(fake.baseUrl);
    base.port = String(port);

    const error = await failure(c.engine(options({ baseUrl: base.toString().replace(/\/$/, '') })).ask(question()));

    expect(error.kind).toBe('unavailable');
  });

  it('maps no answer within timeoutMs to timeout', async () => {
    fake.script({ delayMs: 3_000 });
    const started = Date.now();

    const error = await failure(c.engine(options({ timeoutMs: 300 })).ask(question()));

    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it("maps the question's aborted signal to timeout", async () => {
    fake.script({ delayMs: 3_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);

    const error = await failure(engine.ask(question({ signal: controller.signal })));

    expect(error.kind).toBe('timeout');
  });

  it('maps a 200 body that is not the format to malformed', async () => {
    fake.script({ malformed: true });

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('malformed');
  });

  it('maps a 200 body that is not JSON to malformed', async () => {
    fake.script({ malformed: 'not-json' });

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('malformed');
  });

  it('maps a refusal to refused', async () => {
    fake.script({ refusal: true });

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('refused');
    expect(error.retryable).toBe(false);
  });

  it('maps an empty answer to refused', async () => {
    fake.setAnswer(() => ({ text: '', citations: [] }));

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('refused');
  });

  it('maps a 401 to rejected without the key in the message', async () => {
    fake.script({ status: 401 });

    const error = await failure(engine.ask(question()));

    expect(error.kind).toBe('rejected');
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('401');
  });
});

describe('perplexity body limit', () => {
  /** A server answering 200 with a JSON-looking body of `bytes` bytes, streamed, with or without its length. */
  async function oversized(bytes: number, declareLength: boolean): Promise<{ baseUrl: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(bytes) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const write = (): void => {
        while (sent < bytes && !res.destroyed) {
          const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
          sent += part.length;
          if (!res.write(part)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  }

  it.each([true, false])('refuses a body over 5 MB as malformed (content-length declared: %s)', async (declareLength) => {
    const server = await oversized(MAX_BODY_BYTES + 1024, declareLength);
    try {
      const engine = new PerplexityEngine({ apiKey: KEY, model: 'sonar', baseUrl: server.baseUrl, timeoutMs: 10_000 });

      const error = await failure(engine.ask(question()));

      expect(error.kind).toBe('malformed');
    } finally {
      await server.close();
    }
  });
});
