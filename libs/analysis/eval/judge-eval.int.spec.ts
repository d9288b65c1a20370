import { resolve } from 'node:path';
import { createJudgeClient } from '@libs/analysis';
import { startFakeProviders, type FakeProviders } from '../../../test/support/fake-providers';
import { corpusFiles, corpusLines } from '../../answer-analysis/eval/corpus-files';
import { judgeMode, labelledAnswers, scoreJudge } from './judge-eval';

/** eval:answers --judge against the fake OpenAI Responses API: the judge's labels scored against the hand labels. */

const lines = corpusLines(corpusFiles([resolve(__dirname, '../../answer-analysis/eval/corpus/cars.jsonl')])).slice(0, 6);
const answers = labelledAnswers(lines);

let fakes: FakeProviders;
beforeAll(async () => (fakes = await startFakeProviders()));
afterAll(() => fakes.close());
beforeEach(() => fakes.openai.reset());

const client = () => createJudgeClient({ provider: 'openai', apiKey: 'sk-eval', model: 'gpt-eval', baseUrl: fakes.openai.baseUrl, timeoutMs: 2000 });

it('a judge that gives the hand labels scores 1; one answer refused counts as a fallback and its entities as unlabelled', async () => {
  expect(answers.length).toBe(6);
  const byAnswer = new Map(answers.map((a) => [a.answer, a.labels]));
  fakes.openai.setJudgement((answer, names) => names.map((name) => ({ name, sentiment: byAnswer.get(answer)!.get(name)!, evidence: 'as labelled' })));
  const perfect = await scoreJudge(answers, client(), 2);
  const entities = answers.reduce((n, a) => n + a.labels.size, 0);
  expect(perfect).toMatchObject({ labeller: 'judge:openai/gpt-eval', answers: 6, fallbacks: {}, unknownNames: 0 });
  expect(perfect.overall).toMatchObject({ n: entities, accuracy: 1 });
  expect(perfect.usage.inputTokens).toBeGreaterThan(0);
  expect(fakes.openai.requests).toHaveLength(6);

  fakes.openai.script({ refusal: true });
  const refused = await scoreJudge(answers, client(), 1);
  expect(refused.fallbacks).toEqual({ refused: 1 });
  expect(refused.overall.accuracy).toBeCloseTo((entities - answers[0].labels.size) / entities, 4);
});

it('a 429 is waited out (its Retry-After) and asked again', async () => {
  fakes.openai.setJudgement((_a, names) => names.map((name) => ({ name, sentiment: 'neutral', evidence: '' })));
  fakes.openai.script({ status: 429, retryAfter: '1' });
  const scores = await scoreJudge(answers.slice(0, 1), client(), 1);
  expect(scores.fallbacks).toEqual({});
  expect(fakes.openai.arrivals[1] - fakes.openai.arrivals[0]).toBeGreaterThanOrEqual(950);
});

it('without a configured judge the mode says how to configure one (exit 2)', async () => {
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  expect(await judgeMode(['--judge'], lines, { SENTIMENT_JUDGE: 'off' })).toBe(2);
  expect(error.mock.calls[0][0]).toContain('SENTIMENT_JUDGE');
  error.mockRestore();
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  expect(await judgeMode(['--judge', '--limit', '2'], lines, { SENTIMENT_JUDGE: 'openai', SENTIMENT_JUDGE_API_KEY: 'sk-eval', SENTIMENT_JUDGE_BASE_URL: fakes.openai.baseUrl })).toBe(0);
  expect(JSON.parse(log.mock.calls[0][0] as string).judge).toMatchObject({ answers: 2, labeller: 'judge:openai/gpt-4.1-mini' });
  log.mockRestore();
});
