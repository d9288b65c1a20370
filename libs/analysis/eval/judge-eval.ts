/**
 * `npm run eval:answers -- --judge [--corpus …] [--concurrency N] [--limit N]` (evaluate.ts runs this
 * file as its own process: the answer-analysis platform library does not import a concern): scores the configured
 * sentiment judge (SENTIMENT_JUDGE, SENTIMENT_JUDGE_MODEL, its key and base URL, as the worker reads
 * them) on the labelled sets: each labelled answer is put to the judge in the wire format of DESIGN
 * §17 with its labelled entities' names, and the judge's labels are compared with the hand labels.
 * An entity the judge left out, a refusal, a malformed reply or a failure after retries counts as
 * no label (wrong), and is counted. Prints one JSON line.
 */
import { ANALYSIS_CONFIG, createJudgeClient, EngineError, JUDGE_PROMPT_VERSION, type SentimentJudgeClient } from '@libs/analysis';
import { loadConfig, sectionOf } from '@libs/config';
import { corporaFromArgs, corpusFiles, corpusLines } from '../../answer-analysis/eval/corpus-files';
import { sentimentFigures, type Sentiment } from '../../answer-analysis/eval/score-labels';
import { TUNED_VERTICALS } from '../../answer-analysis/eval/verticals';

interface Labelled {
  id: string;
  vertical: string;
  answer: string;
  /** Entity name → hand label (the entities labelled: the mentioned ones). */
  labels: Map<string, Sentiment>;
}

export interface JudgeScores {
  labeller: string;
  promptVersion: string;
  answers: number;
  /** Answers whose call fell back (by kind: refused, malformed, rate_limited, timeout, …). */
  fallbacks: Record<string, number>;
  /** Names in replies that were not asked about (ignored). */
  unknownNames: number;
  usage: { inputTokens: number; outputTokens: number };
  overall: ReturnType<typeof sentimentFigures>;
  dev: ReturnType<typeof sentimentFigures>;
  new: ReturnType<typeof sentimentFigures>;
  byVertical: Record<string, { n: number; accuracy: number | null; macroF1: number | null }>;
}

/** The labelled answers of corpus lines (lines without sentiment labels are left out). */
export function labelledAnswers(lines: readonly { line: string; vertical: string }[]): Labelled[] {
  return lines.flatMap(({ line, vertical }) => {
    const raw = JSON.parse(line) as { id: string | number; answer: string; entities: { id: string; name: string }[]; labels?: { sentiment?: Record<string, Sentiment> } };
    const sentiment = raw.labels?.sentiment;
    if (!sentiment || Object.keys(sentiment).length === 0) return [];
    const nameOf = new Map(raw.entities.map((e) => [e.id, e.name]));
    const labels = new Map(Object.entries(sentiment).flatMap(([id, label]) => (nameOf.has(id) ? [[nameOf.get(id)!, label] as const] : [])));
    return labels.size ? [{ id: String(raw.id), vertical, answer: raw.answer, labels }] : [];
  });
}

const MAX_ATTEMPTS = 4;

async function judgeWithRetries(client: SentimentJudgeClient, answer: string, names: readonly string[]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.judge(answer, names);
    } catch (error) {
      if (!(error instanceof EngineError) || !error.retryable || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, Math.max(error.retryAfterMs ?? 0, 500 * 2 ** (attempt - 1))));
    }
  }
}

/** Puts each labelled answer to the judge (at most `concurrency` at a time) and scores its labels against the hand labels. */
export async function scoreJudge(answers: readonly Labelled[], client: SentimentJudgeClient, concurrency: number): Promise<JudgeScores> {
  const pairs: { vertical: string; expected: Sentiment; predicted: Sentiment | null }[] = [];
  const scores = { fallbacks: {} as Record<string, number>, unknownNames: 0, usage: { inputTokens: 0, outputTokens: 0 } };
  let next = 0;
  const worker = async () => {
    while (next < answers.length) {
      const a = answers[next++];
      const names = [...a.labels.keys()];
      let predicted = new Map<string, Sentiment>();
      try {
        const reply = await judgeWithRetries(client, a.answer, names);
        predicted = new Map(reply.labels.map((l) => [l.name, l.sentiment]));
        scores.unknownNames += reply.unknown;
        scores.usage.inputTokens += reply.usage?.inputTokens ?? 0;
        scores.usage.outputTokens += reply.usage?.outputTokens ?? 0;
      } catch (error) {
        const kind = error instanceof EngineError ? error.kind : 'error';
        scores.fallbacks[kind] = (scores.fallbacks[kind] ?? 0) + 1;
      }
      for (const [name, expected] of a.labels) pairs.push({ vertical: a.vertical, expected, predicted: predicted.get(name) ?? null });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  const verticals = [...new Set(pairs.map((p) => p.vertical))].sort();
  return {
    labeller: client.labeller,
    promptVersion: JUDGE_PROMPT_VERSION,
    answers: answers.length,
    ...scores,
    overall: sentimentFigures(pairs),
    dev: sentimentFigures(pairs.filter((p) => TUNED_VERTICALS.has(p.vertical))),
    new: sentimentFigures(pairs.filter((p) => !TUNED_VERTICALS.has(p.vertical))),
    byVertical: Object.fromEntries(
      verticals.map((v) => {
        const f = sentimentFigures(pairs.filter((p) => p.vertical === v));
        return [v, { n: f.n, accuracy: f.accuracy, macroF1: f.macroF1 }];
      }),
    ),
  };
}

/** The judge mode of eval:answers: the configured judge, or exit code 2 with a reason when none is configured. */
export async function judgeMode(argv: readonly string[], lines: readonly { line: string; vertical: string }[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const config = sectionOf(loadConfig(env, [ANALYSIS_CONFIG]), ANALYSIS_CONFIG);
  if (!config.judge) {
    console.error('eval:answers --judge: no judge configured (set SENTIMENT_JUDGE=openai|anthropic and its key: SENTIMENT_JUDGE_API_KEY, or OPENAI_API_KEY / ANTHROPIC_API_KEY)');
    return 2;
  }
  const option = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] !== undefined && /^[0-9]{1,6}$/.test(argv[i + 1]) ? Number(argv[i + 1]) : null;
  };
  const client = createJudgeClient({ provider: config.judge.provider, apiKey: config.judge.apiKey, model: config.judge.model, baseUrl: config.judge.baseUrl, timeoutMs: config.judge.timeoutMs });
  const answers = labelledAnswers(lines);
  const limit = option('--limit');
  const scores = await scoreJudge(limit === null ? answers : answers.slice(0, limit), client, option('--concurrency') ?? 4);
  console.log(JSON.stringify({ judge: scores }));
  return 0;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  judgeMode(argv, corpusLines(corpusFiles(corporaFromArgs(argv))))
    .then((code) => (process.exitCode = code))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = 1;
    });
}
