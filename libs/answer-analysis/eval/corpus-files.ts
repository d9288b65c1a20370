import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { devVertical } from './verticals';

/** The labelled corpora used when none is named: the dev corpus (when present) and eval/corpus/. */
export const DEFAULT_CORPORA: readonly string[] = [resolve(__dirname, '../../../../shared/corpus/answers-dev.jsonl'), resolve(__dirname, 'corpus')];

/** The JSONL files a --corpus names (a directory: its *.jsonl), each with the vertical its lines belong to (null: by id). */
export function corpusFiles(paths: readonly string[]): { file: string; vertical: string | null }[] {
  return paths.flatMap((p) => {
    if (!existsSync(p)) return [];
    if (statSync(p).isDirectory()) return readdirSync(p).filter((f) => f.endsWith('.jsonl')).sort().map((f) => ({ file: join(p, f), vertical: basename(f, '.jsonl') }));
    return [{ file: p, vertical: basename(p).startsWith('answers-dev') ? null : basename(p, '.jsonl') }];
  });
}

/** Every non-empty line of the files with its vertical (a dev-corpus line's from its id). */
export function corpusLines(files: readonly { file: string; vertical: string | null }[]): { line: string; vertical: string }[] {
  return files.flatMap((f) =>
    readFileSync(f.file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => ({ line, vertical: f.vertical ?? devVertical(String((JSON.parse(line) as { id: string }).id)) ?? 'unknown' })),
  );
}

/** The --corpus arguments, resolved (the defaults when none). */
export function corporaFromArgs(argv: readonly string[]): string[] {
  const given = argv.flatMap((a, i) => (a === '--corpus' && argv[i + 1] ? [resolve(argv[i + 1])] : []));
  return given.length ? given : [...DEFAULT_CORPORA];
}
