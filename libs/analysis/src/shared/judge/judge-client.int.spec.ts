import { type FakeProvider, type FakeProviders, startFakeProviders } from '../../../../../test/support/fake-providers';
import { EngineError } from '../engines/answer-engine';
import { createJudgeClient, type SentimentJudgeClient } from './judge-client';
import { ENTITY_SENTIMENT_SCHEMA, JUDGE_INSTRUCTIONS, JUDGE_TOOL_NAME, type JudgeProvider } from './judge-wire';

/** The judge client on the official SDKs against local fakes of the OpenAI Responses API and the Anthropic Messages API (DESIGN §17). */

const KEY = 'sk-judge-0123456789-SECRET';
const ANSWER = 'Acme is the best pick for agencies. Globex is clunky and overpriced.';

const cases: { provider: JudgeProvider; model: string; fake(f: FakeProviders): FakeProvider; expectRequest(path: string, body: Record<string, unknown>): void }[] = [
  {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    fake: (f) => f.openai,
    expectRequest: (path, body) => {
      expect(path).toBe('/v1/responses');
      expect(body['model']).toBe('gpt-4.1-mini');
      expect(body['instructions']).toBe(JUDGE_INSTRUCTIONS);
      expect(body['input']).toContain(ANSWER);
      expect(body['input']).toContain('- Acme\n- Globex');
      expect(body['text']).toEqual({ format: { type: 'json_schema', name: 'entity_sentiment', strict: true, schema: ENTITY_SENTIMENT_SCHEMA } });
      expect(body['tools']).toBeUndefined();
    },
  },
  {
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    fake: (f) => f.anthropic,
    expectRequest: (path, body) => {
      expect(path).toBe('/v1/messages');
      expect(body['model']).toBe('claude-haiku-4-5');
      expect(body['system']).toBe(JUDGE_INSTRUCTIONS);
      expect(body['tools']).toEqual([{ name: JUDGE_TOOL_NAME, description: expect.any(String), input_schema: ENTITY_SENTIMENT_SCHEMA }]);
      expect(body['tool_choice']).toEqual({ type: 'tool', name: JUDGE_TOOL_NAME });
      expect(JSON.stringify(body['messages'])).toContain('Globex is clunky');
    },
  },
];

describe.each(cases)('sentiment judge on $provider', ({ provider, model, fake, expectRequest }) => {
  let fakes: FakeProviders;
  let client: SentimentJudgeClient;
  beforeAll(async () => {
    fakes = await startFakeProviders();
    client = createJudgeClient({ provider, apiKey: KEY, model, baseUrl: fake(fakes).baseUrl, timeoutMs: 500 });
  });
  afterAll(() => fakes.close());
  beforeEach(() => fake(fakes).reset());

  it('sends the fixed wire format and reads the labels, the model and the token usage', async () => {
    fake(fakes).setJudgement((_answer, names) => names.map((name) => ({ name, sentiment: name === 'Acme' ? 'positive' : 'negative', evidence: `about ${name}` })));
    const reply = await client.judge(ANSWER, ['Acme', 'Globex']);
    expect(client.labeller).toBe(`judge:${provider}/${model}`);
    expect(reply.labels).toEqual([
      { name: 'Acme', sentiment: 'positive', evidence: 'about Acme' },
      { name: 'Globex', sentiment: 'negative', evidence: 'about Globex' },
    ]);
    expect(reply.unknown).toBe(0);
    expect(reply.model).toBe(model);
    expect(reply.usage?.inputTokens).toBeGreaterThan(0);
    expect(reply.usage?.outputTokens).toBeGreaterThan(0);
    const [request] = fake(fakes).requests;
    expectRequest(request.path, request.body as Record<string, unknown>);
  });

  it('ignores a name it did not ask about, and leaves out an asked name the reply skipped', async () => {
    fake(fakes).setJudgement(() => [
      { name: 'acme', sentiment: 'neutral', evidence: 'listed' },
      { name: 'Initech', sentiment: 'negative', evidence: 'not asked' },
    ]);
    const reply = await client.judge(ANSWER, ['Acme', 'Globex']);
    expect(reply.labels).toEqual([{ name: 'Acme', sentiment: 'neutral', evidence: 'listed' }]);
    expect(reply.unknown).toBe(1);
  });

  it('a refusal is a refused EngineError (not retried)', async () => {
    fake(fakes).script({ refusal: true });
    const error = await client.judge(ANSWER, ['Acme']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).kind).toBe('refused');
    expect((error as EngineError).retryable).toBe(false);
  });

  it('malformed output is a malformed EngineError', async () => {
    fake(fakes).script({ malformed: true });
    const error = (await client.judge(ANSWER, ['Acme']).catch((e: unknown) => e)) as EngineError;
    expect(error.kind).toBe('malformed');
    expect(error.retryable).toBe(false);
  });

  it('429 is retryable with the Retry-After it asked for, and the key never shows', async () => {
    fake(fakes).script({ status: 429, retryAfter: '7' });
    const error = (await client.judge(ANSWER, ['Acme']).catch((e: unknown) => e)) as EngineError;
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterMs).toBe(7000);
    expect(error.retryable).toBe(true);
    fake(fakes).script({ status: 401 });
    const rejected = (await client.judge(ANSWER, ['Acme']).catch((e: unknown) => e)) as EngineError;
    expect(rejected.kind).toBe('rejected');
    expect(rejected.message).not.toContain(KEY);
  });

  it('a reply slower than the timeout is a retryable timeout', async () => {
    fake(fakes).script({ delayMs: 2000 });
    const error = (await client.judge(ANSWER, ['Acme']).catch((e: unknown) => e)) as EngineError;
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
  });
});
