import { AnswerAnalysisError } from '../errors';
import { AnswerInput, ProviderCitation, TrackedEntity } from '../types';

/** One line of a corpus file: an id and the analysis input (labels, when present, are ignored). */
export interface CorpusLine {
  readonly id: string;
  readonly input: AnswerInput;
}

/** A line that is not valid JSON or not of the corpus shape. */
export class CorpusLineError extends AnswerAnalysisError {}

export function parseCorpusLine(line: string): CorpusLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw new CorpusLineError(`not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CorpusLineError('a line must be a JSON object');
  const o = value as Record<string, unknown>;
  if (typeof o.id !== 'string' && typeof o.id !== 'number') throw new CorpusLineError('missing "id"');
  if (typeof o.answer !== 'string') throw new CorpusLineError(`"${String(o.id)}": missing "answer" string`);
  if (!Array.isArray(o.entities)) throw new CorpusLineError(`"${String(o.id)}": missing "entities" list`);
  if (o.providerCitations !== undefined && o.providerCitations !== null && !Array.isArray(o.providerCitations)) {
    throw new CorpusLineError(`"${String(o.id)}": "providerCitations" must be a list`);
  }
  return {
    id: String(o.id),
    input: {
      answer: o.answer,
      entities: o.entities as TrackedEntity[],
      providerCitations: (o.providerCitations ?? []) as ProviderCitation[],
    },
  };
}
