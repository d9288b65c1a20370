import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One line of a labelled-answers file (`../shared/corpus/README.md` describes the format). */
export interface LabelledAnswer {
  id: string;
  provider: string;
  query: string;
  entities: { id: string; kind: 'brand' | 'competitor'; name: string; aliases: string[]; domains: string[] }[];
  answer: string;
  providerCitations?: { url: string; title?: string }[];
  labels: {
    mentions: Record<string, number>;
    order: string[];
    citations: { url: string; domain: string }[];
    sentiment: Record<string, string>;
  };
}

/** The dev corpus beside the repository, unless `LABELLED_ANSWERS` names another file or a directory of `*.jsonl`. */
const DEFAULT = resolve(__dirname, '../../../shared/corpus/answers-dev.jsonl');

/** The labelled answers to check figures on (empty when none is there). */
export function labelledAnswers(path = process.env.LABELLED_ANSWERS ?? DEFAULT): LabelledAnswer[] {
  if (!existsSync(path)) return [];
  const files = statSync(path).isDirectory() ? readdirSync(path).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(path, f)) : [path];
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as LabelledAnswer),
  );
}
