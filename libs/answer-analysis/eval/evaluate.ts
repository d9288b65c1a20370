/**
 * Scores the engine against a labelled corpus and prints ONE JSON line of scores on stdout.
 * Usage: npm run eval:answers -- --corpus ../shared/corpus/answers-dev.jsonl [--verbose]
 * With --verbose, each disagreement is printed to stderr first, one a line.
 */
import { readFileSync } from 'node:fs';
import { evaluateCorpus } from './evaluate-corpus';

function main(argv: readonly string[]): number {
  const at = argv.indexOf('--corpus');
  const corpus = at >= 0 ? argv[at + 1] : undefined;
  if (corpus === undefined) {
    console.error('usage: evaluate --corpus FILE [--verbose]');
    return 2;
  }
  const { scores, disagreements } = evaluateCorpus(readFileSync(corpus, 'utf8'));
  if (argv.includes('--verbose')) for (const line of disagreements) console.error(line);
  console.log(JSON.stringify(scores));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
