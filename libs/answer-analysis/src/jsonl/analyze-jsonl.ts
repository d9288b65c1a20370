import { createInterface } from 'node:readline';
import { analyzeAnswer } from '../analyze-answer';
import { parseCorpusLine } from './parse-corpus-line';
import { toLabels } from './to-labels';

export interface JsonlSummary {
  /** Non-blank input lines read. */
  readonly lines: number;
  /** Lines that could not be analysed (reported on `errors`). */
  readonly errors: number;
}

function write(stream: NodeJS.WritableStream, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = stream.write(chunk, (err?: Error | null) => {
      if (err) reject(err);
    });
    if (ok) resolve();
    else stream.once('drain', () => resolve());
  });
}

/**
 * Reads answers in the corpus format, one JSON object a line, and writes one line per answer:
 * {"id", "mentions", "order", "citations", "sentiment"} in the labels' format. A bad line is reported on `errors`
 * ("line N: reason") and skipped; blank lines are ignored.
 */
export async function analyzeJsonlStream(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, errors: NodeJS.WritableStream = process.stderr): Promise<JsonlSummary> {
  const reader = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  let lines = 0;
  let failed = 0;
  for await (const raw of reader) {
    lineNo++;
    const line = raw.trim();
    if (line.length === 0) continue;
    lines++;
    let result: string;
    try {
      const { id, input: answerInput } = parseCorpusLine(line);
      result = JSON.stringify({ id, ...toLabels(analyzeAnswer(answerInput)) });
    } catch (e) {
      failed++;
      const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      await write(errors, `line ${lineNo}: ${reason}\n`);
      continue;
    }
    await write(output, `${result}\n`);
  }
  return { lines, errors: failed };
}
