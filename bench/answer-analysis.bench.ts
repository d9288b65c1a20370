/**
 * Answers analysed per second on one core, over the dev corpus repeated to 100,000 answers, against a baseline
 * measured in the same run: one pass over the same texts of a single combined regular expression of all the
 * entities' names (the least any mention finder must do). Both sides prepare per entity set once (the baseline its
 * regular expression, the engine `createAnalyzer(entities)`) and analyse every answer from scratch (no result is
 * cached). Warm-up first, then both measured in the same process in interleaved rounds (baseline and engine
 * alternating, so that load from other processes on a shared machine affects both alike); the figures are the
 * medians over the rounds, and `ratio` the median of the rounds' ratios. Also printed, outside the ratio: the time of
 * one JavaScript loop that only reads every character once (`readOnceMicrosecondsPerAnswer`), the floor of any
 * analysis written in JavaScript. Single-threaded: one core. Prints ONE JSON line.
 * Usage: npm run bench:answer-analysis [-- --corpus FILE --answers N --rounds R]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AnswerAnalyzer, AnswerInput, createAnalyzer } from '@libs/answer-analysis';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

const corpusPath = resolve(arg('--corpus', resolve(__dirname, '../../shared/corpus/answers-dev.jsonl')));
const total = Number(arg('--answers', '100000'));
const ROUNDS = Number(arg('--rounds', '5'));
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

/**
 * A floor, not a side of the ratio: one JavaScript loop that reads every character of the same answers once and does
 * nothing else (a running sum of the char codes). Any analysis written in JavaScript reads the text at least this once;
 * printed so the goal can be set against what the language allows on this machine.
 */
function runReadOnce(n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const text = inputs[i % inputs.length].answer;
    for (let j = 0; j < text.length; j++) sum = (sum + text.charCodeAt(j)) | 0;
  }
  return sum & 1;
}

function perSecond(fn: (n: number) => number, n: number): number {
  const t0 = process.hrtime.bigint();
  consumed += fn(n);
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Summed results of both sides, printed so that no work can be skipped as dead code. */
let consumed = 0;

// Warm-up: JIT and lazily loaded tables, on both sides, until steady state.
for (let w = 0; w < 2; w++) {
  perSecond(runBaseline, Math.min(total, 20000));
  perSecond(runEngine, Math.min(total, 20000));
  perSecond(runReadOnce, Math.min(total, 20000));
}

// Measured: rounds alternating baseline and engine (the order flipped every round), so that load from other
// processes on the machine falls on both sides alike; each side analyses `total` answers in all; medians reported.
const perRound = Math.max(1, Math.round(total / ROUNDS));
const baselineRates: number[] = [];
const engineRates: number[] = [];
const ratios: number[] = [];
const readOnceRates: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  readOnceRates.push(perSecond(runReadOnce, perRound));
  let b: number;
  let e: number;
  if (r % 2 === 0) {
    b = perSecond(runBaseline, perRound);
    e = perSecond(runEngine, perRound);
  } else {
    e = perSecond(runEngine, perRound);
    b = perSecond(runBaseline, perRound);
  }
  baselineRates.push(b);
  engineRates.push(e);
  ratios.push(e / b);
}
const baselinePerSecond = Math.round(median(baselineRates));
const enginePerSecond = Math.round(median(engineRates));
console.log(
  JSON.stringify({
    answers: perRound * ROUNDS,
    distinctAnswers: inputs.length,
    rounds: ROUNDS,
    engineAnswersPerSecond: enginePerSecond,
    baselineRegexAnswersPerSecond: baselinePerSecond,
    ratio: Math.round(median(ratios) * 1000) / 1000,
    engineMicrosecondsPerAnswer: Math.round((1e6 / enginePerSecond) * 10) / 10,
    baselineMicrosecondsPerAnswer: Math.round((1e6 / baselinePerSecond) * 10) / 10,
    readOnceMicrosecondsPerAnswer: Math.round((1e6 / median(readOnceRates)) * 10) / 10,
    goalRatio: 0.25,
    checksum: consumed,
  }),
);
