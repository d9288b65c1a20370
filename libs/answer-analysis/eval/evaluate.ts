/**
 * Scores the engine against labelled corpora and prints ONE JSON line of scores on stdout.
 * Usage: npm run eval:answers -- --corpus FILE|DIR [--corpus FILE|DIR ...] [--verbose]
 * (default: ../shared/corpus/answers-dev.jsonl when present, and libs/answer-analysis/eval/corpus/).
 * Besides the overall figures, sentiment is reported per vertical and, separately, for the
 * verticals the rules were tuned on and for those held out (never used for tuning; see verticals.ts).
 * With --verbose, each disagreement is printed to stderr first, one a line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { evaluateCorpus } from './evaluate-corpus';
import { sentimentFigures, type Sentiment } from './score-labels';
import { TUNED_VERTICALS, devVertical } from './verticals';

const DEFAULTS = [resolve(__dirname, '../../../../shared/corpus/answers-dev.jsonl'), resolve(__dirname, 'corpus')];

/** The JSONL files a --corpus names (a directory: its *.jsonl), each with the vertical its lines belong to (null: by id). */
function corpusFiles(paths: readonly string[]): { file: string; vertical: string | null }[] {
  return paths.flatMap((p) => {
    if (!existsSync(p)) return [];
    if (statSync(p).isDirectory()) return readdirSync(p).filter((f) => f.endsWith('.jsonl')).sort().map((f) => ({ file: join(p, f), vertical: basename(f, '.jsonl') }));
    return [{ file: p, vertical: basename(p).startsWith('answers-dev') ? null : basename(p, '.jsonl') }];
  });
}

function main(argv: readonly string[]): number {
  const given = argv.flatMap((a, i) => (a === '--corpus' && argv[i + 1] ? [resolve(argv[i + 1])] : []));
  const files = corpusFiles(given.length ? given : DEFAULTS);
  if (files.length === 0) {
    console.error('usage: evaluate --corpus FILE|DIR [--corpus FILE|DIR ...] [--verbose]  (no corpus found)');
    return 2;
  }
  const text = files.map((f) => readFileSync(f.file, 'utf8').trimEnd()).join('\n');
  const { scores, sentiments, disagreements } = evaluateCorpus(text);
  if (argv.includes('--verbose')) for (const line of disagreements) console.error(line);

  const verticalOfId = new Map<string, string>();
  for (const f of files) {
    for (const line of readFileSync(f.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const id = (JSON.parse(line) as { id: string }).id;
      verticalOfId.set(id, f.vertical ?? devVertical(id) ?? 'unknown');
    }
  }
  const byVertical = new Map<string, { expected: Sentiment; predicted: Sentiment | null }[]>();
  for (const s of sentiments) {
    const v = verticalOfId.get(s.id) ?? 'unknown';
    byVertical.set(v, [...(byVertical.get(v) ?? []), s]);
  }
  const pick = (tuned: boolean) => [...byVertical].filter(([v]) => TUNED_VERTICALS.has(v) === tuned).flatMap(([, s]) => s);
  const heldOut = pick(false);
  console.log(
    JSON.stringify({
      ...scores,
      sentiment: {
        tuned: { verticals: [...byVertical.keys()].filter((v) => TUNED_VERTICALS.has(v)).length, ...sentimentFigures(pick(true)) },
        heldOut: heldOut.length ? { verticals: [...byVertical.keys()].filter((v) => !TUNED_VERTICALS.has(v)).length, ...sentimentFigures(heldOut) } : null,
        byVertical: Object.fromEntries(
          [...byVertical].sort(([a], [b]) => a.localeCompare(b)).map(([v, s]) => {
            const f = sentimentFigures(s);
            return [v, { set: TUNED_VERTICALS.has(v) ? 'tuned' : 'heldOut', n: f.n, accuracy: f.accuracy, macroF1: f.macroF1, recall: Object.fromEntries(Object.entries(f.recall).map(([k, r]) => [k, r.recall])) }];
          }),
        ),
      },
    }),
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
