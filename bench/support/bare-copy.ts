import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/**
 * The bare baseline of a rebuild: the rows the tables hold now, read out first (COPY TO, not
 * timed), then written with COPY FROM into fresh tables of the same definition (LIKE … INCLUDING
 * ALL: the same keys and indexes a rebuild's shadow tables have), timed; the fresh tables are dropped.
 */
export async function timeBareCopy(url: string, tables: readonly string[]): Promise<{ seconds: number; rows: number }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const data = new Map<string, Buffer[]>();
    for (const t of tables) {
      const chunks: Buffer[] = [];
      await pipeline(client.query(copyTo(`COPY ${t} TO STDOUT`)), new Writable({ write: (c: Buffer, _e, done) => (chunks.push(c), done()) }));
      data.set(t, chunks);
      await client.query(`DROP TABLE IF EXISTS bare_${t}`);
      await client.query(`CREATE TABLE bare_${t} (LIKE ${t} INCLUDING ALL)`);
    }
    let rows = 0;
    const t0 = performance.now();
    for (const t of tables) {
      const copy = client.query(copyFrom(`COPY bare_${t} FROM STDIN`));
      await pipeline(Readable.from(data.get(t)!), copy);
      rows += Number(copy.rowCount);
    }
    const seconds = (performance.now() - t0) / 1000;
    for (const t of tables) await client.query(`DROP TABLE bare_${t}`);
    return { seconds, rows };
  } finally {
    await client.end();
  }
}
