import type { RecordedEvent } from '@libs/event-store';
import { answerEvents } from '@libs/analysis';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';

interface SourceRow {
  id: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  url: string;
  domain: string;
  title: string | null;
}

export const CITATION_SOURCES = tableShape<SourceRow>({
  table: 'citation_sources',
  columns: { id: 'bigint', organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', url: 'text', domain: 'text', title: 'text' },
  key: ['id'],
});

/**
 * `citation_sources`: the id of every URL cited for a brand (`GET /citations/sources/{id}`), with
 * its domain and latest title. Ids are given in feed order (the next after the largest), so a
 * rebuild, which replays the same feed, gives every URL the id it had.
 */
export const citationSourcesProjector: Projector = {
  name: 'citation_sources',
  handles: ['answer.analysed'],
  tables: [CITATION_SOURCES.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const seen = new Map<string, Omit<SourceRow, 'id' | 'client_id'>>();
    for (const e of events) {
      const event = answerEvents.decode(e);
      if (event?.type !== 'answer.analysed') continue;
      for (const c of event.data.citations) {
        const key = `${event.data.brandId}\n${c.url}`;
        const known = seen.get(key);
        if (known) known.title = c.title ?? known.title;
        else seen.set(key, { organization_id: event.data.organizationId, brand_id: event.data.brandId, url: c.url, domain: c.domain, title: c.title });
      }
    }
    if (!seen.size) return;
    const found: { id: string; brand_id: string; url: string }[] = await context.query(
      `SELECT s.id, s.brand_id, s.url FROM ${context.table('citation_sources')} s JOIN unnest($1::bigint[], $2::text[]) AS u(brand_id, url) ON s.brand_id = u.brand_id AND s.url = u.url`,
      [[...seen.values()].map((s) => s.brand_id), [...seen.values()].map((s) => s.url)],
    );
    const ids = new Map(found.map((r) => [`${r.brand_id}\n${r.url}`, Number(r.id)]));
    const [{ max }]: { max: string }[] = await context.query(`SELECT coalesce(max(id), 0) AS max FROM ${context.table('citation_sources')}`);
    let next = Number(max);
    const owners = await brandOwners(context.query, [...seen.values()].map((s) => s.brand_id));
    const fresh: SourceRow[] = [];
    const titled: SourceRow[] = [];
    for (const [key, s] of seen) {
      const row = { ...s, client_id: owners.get(s.brand_id)?.clientId ?? null };
      const id = ids.get(key);
      if (id === undefined) fresh.push({ id: ++next, ...row });
      else if (s.title !== null) titled.push({ id, ...row });
    }
    await upsertRows(context, CITATION_SOURCES, fresh, { kind: 'keep' });
    await upsertRows(context, CITATION_SOURCES, titled, { kind: 'replace', columns: ['title'] });
  },
};
