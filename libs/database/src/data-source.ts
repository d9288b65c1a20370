import { Client } from 'pg';
import { DataSource, type DataSourceOptions, type MigrationInterface } from 'typeorm';

/** A migration class (the composition root lists them: apps/composition/migrations.ts). */
export type MigrationClass = new () => MigrationInterface;

/** The read models' data source; `migrations` only where they are run (`runMigrations`). */
export function dataSourceOptions(databaseUrl: string, poolSize = 20, migrations: readonly MigrationClass[] = []): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    poolSize,
    migrations: [...migrations],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    entities: [],
    extra: { connectionTimeoutMillis: 5000 },
  };
}

export function createDataSource(databaseUrl: string, poolSize = 20, migrations: readonly MigrationClass[] = []): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl, poolSize, migrations));
}

/** Creates the database named in the URL when it does not exist (first start on a new machine). */
export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) return false;
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const r = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (r.rowCount) return false;
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return true;
  } catch (error) {
    // Another process created it at the same moment.
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}

/** Applies the pending ones of `migrations` (in their order); returns the names applied. */
export async function runMigrations(databaseUrl: string, migrations: readonly MigrationClass[]): Promise<string[]> {
  const ds = createDataSource(databaseUrl, 2, migrations);
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
