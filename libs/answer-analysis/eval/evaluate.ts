/**
 * Scores the engine against labelled corpora and prints ONE JSON line of scores on stdout.
 * Usage: npm run eval:answers -- --corpus FILE|DIR [--corpus FILE|DIR ...] [--verbose]
 * (default: ../shared/corpus/answers-dev.jsonl when present, and libs/answer-analysis/eval/corpus/).
 * Besides the overall figures, sentiment is reported leave one vertical out (each vertical labelled by a model
 * trained on the others only), and for the frozen lexicon rules (fitted on the dev verticals before the new ones
 * were labelled), each for the dev verticals, the new ones (see verticals.ts) and per vertical.
 * With --verbose, each disagreement is printed to stderr first, one a line.
 * With --judge, scores the configured sentiment judge instead: libs/analysis/eval/judge-eval.ts, run as its
 * own process (this platform library does not import the analysis concern, which owns the judge); it asks
 * the judge's API.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { analyzeAnswer, createAnalyzer, parseCorpusLine, toLabels } from '../src/index';
import { corporaFromArgs, corpusFiles, corpusLines } from './corpus-files';
import { evaluateCorpus } from './evaluate-corpus';
import { sentimentFigures, type Sentiment } from './score-labels';
import { collectSamples, leaveOneVerticalOut, TRAINING } from './sentiment-training';
import { TUNED_VERTICALS } from './verticals';

/** The held-out target of issue 13: accuracy and macro-F1 on verticals the scorer was not fitted on. */
const TARGET = { accuracy: 0.8, macroF1: 0.7 };

type Pair = { vertical: string; expected: Sentiment; predicted: Sentiment | null };

/** Figures for the dev verticals, the new ones, and each vertical. */
function report(pairs: readonly Pair[]) {
  const verticals = [...new Set(pairs.map((p) => p.vertical))].sort();
  const of = (dev: boolean) => pairs.filter((p) => TUNED_VERTICALS.has(p.vertical) === dev);
  return {
    dev: { verticals: verticals.filter((v) => TUNED_VERTICALS.has(v)).length, ...sentimentFigures(of(true)) },
    new: { verticals: verticals.filter((v) => !TUNED_VERTICALS.has(v)).length, ...sentimentFigures(of(false)) },
    byVertical: Object.fromEntries(
      verticals.map((v) => {
        const f = sentimentFigures(pairs.filter((p) => p.vertical === v));
        return [v, { set: TUNED_VERTICALS.has(v) ? 'dev' : 'new', n: f.n, accuracy: f.accuracy, macroF1: f.macroF1, recall: Object.fromEntries(Object.entries(f.recall).map(([k, r]) => [k, r.recall])) }];
      }),
    ),
  };
}

/** The frozen lexicon rules' labels (no trained model): fitted on the dev verticals only, before the new ones were labelled. */
function ruleLabels(lines: readonly { line: string; vertical: string }[]): Pair[] {
  return lines.flatMap(({ line, vertical }) => {
    const raw = JSON.parse(line) as { labels?: { sentiment?: Record<string, Sentiment> } };
    const expected = raw.labels?.sentiment;
    if (expected === undefined) return [];
    const { input } = parseCorpusLine(line);
    const predicted = toLabels(createAnalyzer(input.entities, { sentimentModel: null }).analyze(input)).sentiment;
    return Object.entries(expected).map(([entity, label]) => ({ vertical, expected: label, predicted: (predicted[entity] ?? null) as Sentiment | null }));
  });
}

function main(argv: readonly string[]): number {
  const files = corpusFiles(corporaFromArgs(argv));
  if (files.length === 0) {
    console.error('usage: evaluate --corpus FILE|DIR [--corpus FILE|DIR ...] [--verbose]  (no corpus found)');
    return 2;
  }
  const text = files.map((f) => readFileSync(f.file, 'utf8').trimEnd()).join('\n');
  const { scores, disagreements } = evaluateCorpus(text, analyzeAnswer);
  if (argv.includes('--verbose')) for (const line of disagreements) console.error(line);

  const lines = corpusLines(files);
  const lovo = leaveOneVerticalOut(collectSamples(lines), TRAINING);
  const heldOut = report(lovo);
  console.log(
    JSON.stringify({
      ...scores,
      sentiment: {
        scorer: 'trained model (src/sentiment/trained-model.ts); the top-level sentiment figures are in-sample',
        leaveOneVerticalOut: { ...heldOut, target: { ...TARGET, met: heldOut.new.accuracy >= TARGET.accuracy && heldOut.new.macroF1 >= TARGET.macroF1 } },
        frozenRules: report(ruleLabels(lines)),
      },
    }),
  );
  return 0;
}

const args = process.argv.slice(2);
if (args.includes('--judge')) {
  const judge = spawnSync(process.execPath, [...process.execArgv, resolve(__dirname, '../../analysis/eval/judge-eval.ts'), ...args], { stdio: 'inherit' });
  process.exitCode = judge.status ?? 1;
} else process.exitCode = main(args);
