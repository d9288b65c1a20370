/**
 * Answers analysed per second on one core, over the dev corpus repeated to 100,000 answers, against a baseline
 * measured in the same run: one pass over the same texts of a single combined regular expression of all the
 * entities' names (the least any mention finder must do). Both sides prepare per entity set once (the baseline its
 * regular expression, the engine `createAnalyzer(entities)`) and analyse every answer from scratch (no result is
 * cached). Warm-up first, then both measured in the same process. Prints ONE JSON line.
 * Usage: npm run bench:answer-analysis [-- --corpus FILE --answers N]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AnswerAnalyzer, AnswerInput, createAnalyzer } from '../libs/answer-analysis/src/index';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

const corpusPath = resolve(arg('--corpus', resolve(__dirname, '../../shared/corpus/answers-dev.jsonl')));
const total = Number(arg('--answers', '100000'));
const inputs: AnswerInput[] = readFileSync(corpusPath, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as AnswerInput);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
const baselinePatterns = inputs.map((input) => {
  const names = input.entities.flatMap((e) => [e.name, ...(e.aliases ?? [])]);
  return new RegExp(`\\b(?:${names.map(escape).join('|')})\\b`, 'gi');
});

function runBaseline(n: number): number {
  let found = 0;
  for (let i = 0; i < n; i++) {
    const k = i % inputs.length;
    const re = baselinePatterns[k];
    re.lastIndex = 0;
    const text = inputs[k].answer;
    while (re.exec(text) !== null) found++;
  }
  return found;
}

// The engine's counterpart of the baseline's compiled expressions: one analyzer per entity set.
const analyzers: AnswerAnalyzer[] = inputs.map((input) => createAnalyzer(input.entities));

function runEngine(n: number): number {
  let mentions = 0;
  for (let i = 0; i < n; i++) {
    const k = i % inputs.length;
    const a = analyzers[k].analyze(inputs[k]);
    mentions += a.order.length + a.citations.length + a.entities.length;
  }
  return mentions;
}

function timed(fn: (n: number) => number, n: number): { seconds: number; check: number } {
  const t0 = process.hrtime.bigint();
  const check = fn(n);
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, check };
}

// Warm-up: JIT and lazily loaded tables, on both sides.
runBaseline(Math.min(total, 20000));
runEngine(Math.min(total, 20000));

const baseline = timed(runBaseline, total);
const engine = timed(runEngine, total);
const baselinePerSecond = Math.round(total / baseline.seconds);
const enginePerSecond = Math.round(total / engine.seconds);
console.log(
  JSON.stringify({
    answers: total,
    distinctAnswers: inputs.length,
    engineAnswersPerSecond: enginePerSecond,
    baselineRegexAnswersPerSecond: baselinePerSecond,
    ratio: Math.round((enginePerSecond / baselinePerSecond) * 1000) / 1000,
    goalRatio: 0.25,
  }),
);
