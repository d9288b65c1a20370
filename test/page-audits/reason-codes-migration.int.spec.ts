import { Client } from 'pg';
import { runMigrations } from '@libs/database';
import { AddPageAuditReasonCodes1763700013500 } from '@libs/page-audits';
import { ALL_MIGRATIONS } from '../../apps/composition/migrations';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * The migration that gave page-audit reasons their code: rows recorded before it get their code,
 * and the reasons that named a host or an address (the probe of issue 28) are rewritten.
 */
let db: TestDatabase;
let pg: Client;

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  const before = ALL_MIGRATIONS.slice(0, ALL_MIGRATIONS.indexOf(AddPageAuditReasonCodes1763700013500));
  await runMigrations(db.url, before);
  pg = new Client({ connectionString: db.url });
  await pg.connect();
});
afterAll(async () => {
  await pg?.end();
  await db?.drop();
});

it('codes the old reasons and rewrites those that named hosts or addresses', async () => {
  const old: [string, string][] = [
    ['blocked: refused to connect to vm (127.0.0.1): not a public address', 'address_not_allowed'],
    ['network: ENOTFOUND: getaddrinfo ENOTFOUND intranet.corp', 'name_not_resolved'],
    ['network: ECONNREFUSED: connect ECONNREFUSED 10.0.0.7:80', 'connection_refused'],
    ['network: ECONNRESET: read ECONNRESET', 'connection_failed'],
    ['timed out after 15000 ms', 'timeout'],
    ['the page is too large (the body is more than 5242880 bytes; the cap is 5242880 bytes)', 'too_large'],
    ['too_many_redirects: more than 5 redirects', 'too_many_redirects'],
    ['invalid_url: redirect to an invalid URL: http://[bad', 'invalid_url'],
    ['the URL must be http or https, not ftp', 'invalid_url'],
    ['HTTP 404', 'http_404'],
    ['not an HTML page (Content-Type application/pdf)', 'not_html'],
    ['robots.txt disallows AIVisibilityPageAudit from this URL', 'robots_disallowed'],
    ['robots.txt could not be read (blocked: refused to connect to vm (127.0.0.1): not a public address): nothing on the site may be fetched', 'robots_unavailable'],
    ['could not be audited: connect ETIMEDOUT 10.1.2.3', 'internal_error'],
    ['the body is not valid utf-8 (broken encoding)', 'bad_encoding'],
  ];
  await pg.query(`INSERT INTO page_audits (id, organization_id, brand_id, source, requested_by, status, reason) VALUES
    (1, 1, 1, 'urls', 'test', 'completed', NULL),
    (2, 1, 1, 'sitemap', 'test', 'failed', 'the sitemap http://vm:8080/sitemap.xml could not be fetched (blocked: refused to connect to vm (127.0.0.1): not a public address)'),
    (3, 1, 1, 'sitemap', 'test', 'failed', 'the sitemap https://acme.com/sitemap.xml answered HTTP 404'),
    (4, 1, 1, 'sitemap', 'test', 'failed', 'not a sitemap: the root element is <html>, not <urlset> or <sitemapindex> (https://acme.com/s.xml)'),
    (5, 1, 1, 'sitemap', 'test', 'failed', 'the sitemap http://gone.corp/s.xml could not be fetched (network: ENOTFOUND: getaddrinfo ENOTFOUND gone.corp)')`);
  for (const [k, [reason]] of old.entries()) {
    await pg.query(`INSERT INTO page_audit_results (audit_id, n, organization_id, brand_id, url, status, reason) VALUES (1, $1, 1, 1, $2, 'failed', $3)`, [k, `https://acme.com/${k}`, reason]);
  }
  await pg.query(`INSERT INTO page_audit_results (audit_id, n, organization_id, brand_id, url, status, score) VALUES (1, 99, 1, 1, 'https://acme.com/ok', 'scored', 80)`);
  await runMigrations(db.url, ALL_MIGRATIONS);

  const rows = (await pg.query(`SELECT n, reason, reason_code FROM page_audit_results ORDER BY n`)).rows as { n: number; reason: string | null; reason_code: string | null }[];
  expect(rows.map((r) => r.reason_code)).toEqual([...old.map(([, code]) => code), null]);
  for (const r of rows) expect({ n: r.n, reason: r.reason }).toEqual({ n: r.n, reason: r.reason === null ? null : expect.not.stringMatching(/127\.0\.0|10\.0\.0|10\.1\.2|\bvm\b|intranet|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|getaddrinfo/) });
  expect(rows[0].reason).toMatch(/^address not allowed/);
  expect(rows[1].reason).toMatch(/^name not resolved/);
  expect(rows[9].reason).toBe('HTTP 404');
  const audits = (await pg.query(`SELECT id, reason, reason_code, pages_over_quota FROM page_audits ORDER BY id`)).rows;
  expect(audits.map((a) => [a.reason_code, a.pages_over_quota])).toEqual([[null, 0], ['address_not_allowed', 0], ['http_404', 0], ['not_a_sitemap', 0], ['name_not_resolved', 0]]);
  expect(audits[1].reason).toMatch(/^the sitemap could not be fetched: address not allowed/);
  expect(audits[2].reason).toBe('the sitemap answered HTTP 404');
  expect(audits[4].reason).toMatch(/^the sitemap could not be fetched: name not resolved/);
  for (const a of audits) expect(a.reason ?? '').not.toMatch(/127\.0\.0|\bvm\b|gone\.corp|ENOTFOUND/);
});
