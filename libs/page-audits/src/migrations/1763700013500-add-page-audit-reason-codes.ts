import type { MigrationInterface, QueryRunner } from 'typeorm';

const ADDRESS = 'address not allowed: the host is, or resolves to, an address that is not public (private, loopback, link-local or reserved)';
const NAME = 'name not resolved: the host name has no address';
const REFUSED = 'connection refused by the server';
const BROKEN = 'the connection failed before a complete answer arrived';

/**
 * Page audits' reasons get a stable code (`reason_code`, domain/page-failures) beside their
 * sentence, and an audit counts the sitemap pages its organisation's quota left out
 * (`pages_over_quota`). Reasons recorded before are given their code, and those that named a
 * host or an address (the guard's refusals, DNS and connection errors, internal errors) are
 * rewritten to the sentences the service writes now, so no stored reason tells a customer how
 * our network resolves names.
 */
export class AddPageAuditReasonCodes1763700013500 implements MigrationInterface {
  name = 'AddPageAuditReasonCodes1763700013500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE page_audit_results ADD COLUMN reason_code text`);
    await q.query(`ALTER TABLE page_audits ADD COLUMN reason_code text, ADD COLUMN pages_over_quota integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE page_audit_results SET reason_code = CASE
          WHEN reason LIKE 'blocked:%' THEN 'address_not_allowed'
          WHEN reason ~ '(ENOTFOUND|EAI_AGAIN|ENODATA|EAI_NONAME)' THEN 'name_not_resolved'
          WHEN reason LIKE '%ECONNREFUSED%' THEN 'connection_refused'
          WHEN reason LIKE 'network:%' THEN 'connection_failed'
          WHEN reason LIKE 'timed out%' THEN 'timeout'
          WHEN reason LIKE 'the page is too large%' THEN 'too_large'
          WHEN reason LIKE 'too_many_redirects:%' THEN 'too_many_redirects'
          WHEN reason LIKE 'invalid_url:%' OR reason LIKE 'the URL %' THEN 'invalid_url'
          WHEN reason ~ '^HTTP [0-9]{3}$' THEN 'http_' || substr(reason, 6)
          WHEN reason LIKE 'not an HTML page%' THEN 'not_html'
          WHEN reason LIKE 'robots.txt disallows%' THEN 'robots_disallowed'
          WHEN reason LIKE 'robots.txt could not be read%' THEN 'robots_unavailable'
          WHEN reason LIKE 'could not be audited:%' THEN 'internal_error'
          ELSE 'bad_encoding' END
        WHERE reason IS NOT NULL`);
    await q.query(
      `UPDATE page_audit_results SET reason = CASE reason_code
          WHEN 'address_not_allowed' THEN $1
          WHEN 'name_not_resolved' THEN $2
          WHEN 'connection_refused' THEN $3
          WHEN 'connection_failed' THEN $4
          WHEN 'too_many_redirects' THEN 'too many redirects'
          WHEN 'invalid_url' THEN CASE WHEN reason LIKE 'invalid_url:%' THEN 'redirected to a URL that is not an absolute http(s) URL without credentials' ELSE reason END
          WHEN 'robots_unavailable' THEN 'robots.txt could not be read: nothing on the site may be fetched until it can be'
          WHEN 'internal_error' THEN 'the page could not be audited because of an error of the service (logged); audit it again'
          ELSE reason END
        WHERE reason_code IN ('address_not_allowed', 'name_not_resolved', 'connection_refused', 'connection_failed', 'too_many_redirects', 'invalid_url', 'robots_unavailable', 'internal_error')`,
      [ADDRESS, NAME, REFUSED, BROKEN],
    );
    // An audit's reason was the sitemap's: "the sitemap <url> could not be fetched (<kind>: <detail>)", "… answered HTTP <n>", a parse or decode reason.
    await q.query(`
      UPDATE page_audits SET reason_code = CASE
          WHEN reason LIKE 'the sitemap % could not be fetched (blocked:%' THEN 'address_not_allowed'
          WHEN reason LIKE 'the sitemap % could not be fetched (%' AND reason ~ '(ENOTFOUND|EAI_AGAIN|ENODATA|EAI_NONAME)' THEN 'name_not_resolved'
          WHEN reason LIKE 'the sitemap % could not be fetched (%ECONNREFUSED%' THEN 'connection_refused'
          WHEN reason LIKE 'the sitemap % could not be fetched (network:%' THEN 'connection_failed'
          WHEN reason LIKE 'the sitemap % could not be fetched (timeout:%' THEN 'timeout'
          WHEN reason LIKE 'the sitemap % could not be fetched (too_large:%' THEN 'too_large'
          WHEN reason LIKE 'the sitemap % could not be fetched (too_many_redirects:%' THEN 'too_many_redirects'
          WHEN reason LIKE 'the sitemap % could not be fetched (invalid_url:%' THEN 'invalid_url'
          WHEN reason ~ '^the sitemap .* answered HTTP [0-9]{3}$' THEN 'http_' || right(reason, 3)
          WHEN reason LIKE 'robots.txt disallows%' THEN 'robots_disallowed'
          WHEN reason = 'the audit could not be queued' THEN 'queue_unavailable'
          WHEN reason LIKE 'not a sitemap%' OR reason LIKE 'the sitemap is not XML%' THEN 'not_a_sitemap'
          WHEN reason LIKE 'the sitemap %' THEN 'bad_encoding'
          ELSE NULL END
        WHERE reason IS NOT NULL`);
    await q.query(
      `UPDATE page_audits SET reason = 'the sitemap could not be fetched: ' || CASE reason_code
          WHEN 'address_not_allowed' THEN $1 WHEN 'name_not_resolved' THEN $2 WHEN 'connection_refused' THEN $3 WHEN 'connection_failed' THEN $4
          WHEN 'timeout' THEN 'timed out' WHEN 'too_large' THEN 'too large' WHEN 'too_many_redirects' THEN 'too many redirects'
          ELSE 'the URL is not an absolute http(s) URL without credentials' END
        WHERE reason_code IN ('address_not_allowed', 'name_not_resolved', 'connection_refused', 'connection_failed', 'timeout', 'too_large', 'too_many_redirects', 'invalid_url')`,
      [ADDRESS, NAME, REFUSED, BROKEN],
    );
    await q.query(`UPDATE page_audits SET reason = 'the sitemap answered HTTP ' || right(reason, 3) WHERE reason_code LIKE 'http\\_%'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE page_audits DROP COLUMN reason_code, DROP COLUMN pages_over_quota`);
    await q.query(`ALTER TABLE page_audit_results DROP COLUMN reason_code`);
  }
}
