import type { Command } from 'commander';
import { ensureDatabaseExists, runMigrations } from '@libs/database';
import { ALL_MIGRATIONS } from '../../../composition/migrations';
import { CliContext, toJson } from '../cli-context';

export function registerDb(program: Command, run: (fn: (ctx: CliContext) => Promise<void>) => Promise<void>, json: () => boolean): void {
  program
    .command('db')
    .description('database administration')
    .command('migrate')
    .description('create the database if needed and apply pending migrations')
    .action(() =>
      run(async (ctx) => {
        const created = await ensureDatabaseExists(ctx.config.databaseUrl);
        const applied = await runMigrations(ctx.config.databaseUrl, ALL_MIGRATIONS);
        if (json()) process.stdout.write(toJson({ created, applied }) + '\n');
        else process.stdout.write(`${created ? 'database created; ' : ''}${applied.length ? `applied ${applied.join(', ')}` : 'no pending migrations'}\n`);
      }),
    );
}
