import { AnswerAnalysis, AnswerInput, analyzeAnswer, parseCorpusLine, toLabels } from '../src/index';
import { Evaluation, Labels, LabelledPair, scoreLabels } from './score-labels';

/** Runs the engine over a labelled corpus (its text, one JSON object a line) and scores it. Lines without labels are skipped. */
export function evaluateCorpus(corpusText: string, analyze: (input: AnswerInput) => AnswerAnalysis = analyzeAnswer): Evaluation {
  const pairs: LabelledPair[] = [];
  for (const line of corpusText.split('\n')) {
    if (line.trim() === '') continue;
    const raw = JSON.parse(line) as { labels?: Labels };
    if (raw.labels === undefined) continue;
    const { id, input } = parseCorpusLine(line);
    pairs.push({ id, expected: raw.labels, predicted: toLabels(analyze(input)) });
  }
  return scoreLabels(pairs);
}
