import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Command } from 'commander';
import { analyzeJsonlStream } from '@libs/answer-analysis';
import { CliUsageError } from '../cli-context';

/** `answers analyze --input FILE`: one JSON line per answer (id, mentions, order, citations, sentiment). No database needed. */
export function registerAnswers(program: Command, fail: (error: unknown) => void): void {
  program
    .command('answers')
    .description('AI-answer analysis')
    .command('analyze')
    .description('analyse a JSON-lines file of AI answers (corpus format); prints one JSON object per answer')
    .requiredOption('--input <file>', 'JSON-lines file, one answer per line ("-" for standard input)')
    .action(async (opts: { input: string }) => {
      try {
        let input: NodeJS.ReadableStream = process.stdin;
        if (opts.input !== '-') {
          await access(opts.input).catch(() => {
            throw new CliUsageError(`cannot read ${opts.input}`);
          });
          input = createReadStream(opts.input);
        }
        const summary = await analyzeJsonlStream(input, process.stdout, process.stderr);
        if (summary.errors > 0) process.exitCode = 1;
      } catch (error) {
        fail(error);
      }
    });
}
