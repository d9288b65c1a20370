import type { RecordedEvent } from '@libs/event-store';
import { answerEvents, resultId, type AnswerAnalysed } from '@libs/analysis';
import { ANSWER_CHANGES, changeId, changeRecord, detectChanges, severityRank, snapshotOf, type AnswerSnapshot, type ChangeRow } from '@libs/citations';
import { tableShape, upsertRows, type ProjectionContext, type Projector } from '@libs/projection-engine';
import { brandOwners } from '@libs/tenancy';
import { derivedUuid, dispatchWebhookEvents, organizationsSubscribedTo } from '@libs/webhooks';

interface StateRow {
  result_id: string;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  provider: string;
  prompt_id: number | null;
  query: string;
  country: string | null;
  language: string | null;
  asked_at: string;
  snapshot: AnswerSnapshot;
}

/** Each analysed answer's snapshot, which its changes compare (read by this projector only). */
export const CHANGE_ANSWER_STATES = tableShape<StateRow>({
  table: 'change_answer_states',
  columns: { result_id: 'text', organization_id: 'bigint', client_id: 'bigint', brand_id: 'bigint', provider: 'text', prompt_id: 'bigint', query: 'text', country: 'text', language: 'text', asked_at: 'timestamptz', snapshot: 'jsonb' },
  key: ['result_id'],
});

interface Neighbours {
  id: string;
  prev: string | null;
  next: string | null;
}

/**
 * `answer_changes` (and `change_answer_states`, the snapshot of each analysed answer the changes
 * compare): each answer compared with the previous answer to the same prompt (query) in the same
 * market by the same provider, in the order they were asked (DESIGN §14). An answer analysed in a batch (a new one, a
 * re-analysis, or one that arrives out of order) has its own changes recomputed, and so has the
 * answer after it, whose previous answer it may now be. Outside a rebuild, new changes are sent
 * as `change.detected` webhooks; a change's delivery id derives from its id, so a change found
 * again (a re-analysis that does not alter it) is not sent twice.
 */
export const answerChangesProjector: Projector = {
  name: 'answer_changes',
  handles: ['answer.analysed'],
  tables: [ANSWER_CHANGES.table, CHANGE_ANSWER_STATES.table],
  async apply(events: readonly RecordedEvent[], context: ProjectionContext): Promise<void> {
    const latest = new Map<string, AnswerAnalysed['data']>();
    const recordedAt = new Map<string, Date>();
    for (const e of events) {
      const event = answerEvents.decode(e);
      if (event?.type !== 'answer.analysed') continue;
      latest.set(resultId(event.data.runId, event.data.n), event.data);
      recordedAt.set(resultId(event.data.runId, event.data.n), e.recordedAt);
    }
    if (!latest.size) return;
    const owners = await brandOwners(context.query, [...latest.values()].map((d) => d.brandId));
    await upsertRows(
      context,
      CHANGE_ANSWER_STATES,
      [...latest].map(([id, d]) => ({
        result_id: id,
        organization_id: d.organizationId,
        client_id: owners.get(d.brandId)?.clientId ?? null,
        brand_id: d.brandId,
        provider: d.provider,
        prompt_id: d.promptId,
        query: d.query,
        country: d.country ?? null,
        language: d.language ?? null,
        asked_at: d.askedAt,
        snapshot: snapshotOf(d),
      })),
    );
    const t = context.table('change_answer_states');
    const around = (dir: '<' | '>') =>
      `(SELECT x.result_id FROM ${t} x WHERE x.brand_id = s.brand_id AND x.query = s.query AND x.provider = s.provider
          AND x.country IS NOT DISTINCT FROM s.country AND x.language IS NOT DISTINCT FROM s.language
          AND (x.asked_at, x.result_id) ${dir} (s.asked_at, s.result_id) ORDER BY x.asked_at ${dir === '<' ? 'DESC' : 'ASC'}, x.result_id ${dir === '<' ? 'DESC' : 'ASC'} LIMIT 1)`;
    const neighbours: Neighbours[] = await context.query(
      `SELECT s.result_id AS id, ${around('<')} AS prev, ${around('>')} AS next FROM unnest($1::text[]) AS u(id) JOIN ${t} s ON s.result_id = u.id`,
      [[...latest.keys()]],
    );
    // The pairs to (re)compare: each analysed answer with its previous one, and the answer after it (outside the batch) with it.
    const pairs = new Map<string, string | null>();
    for (const n of neighbours) {
      pairs.set(n.id, n.prev);
      if (n.next !== null && !latest.has(n.next)) pairs.set(n.next, n.id);
    }
    const wanted = [...new Set([...pairs.keys(), ...[...pairs.values()].filter((v): v is string => v !== null)])];
    const loaded: (Omit<StateRow, 'asked_at' | 'organization_id' | 'brand_id' | 'client_id' | 'prompt_id'> & { asked_at: Date; organization_id: string; brand_id: string; client_id: string | null; prompt_id: string | null })[] = await context.query(
      `SELECT * FROM ${t} WHERE result_id = ANY($1::text[])`,
      [wanted],
    );
    const byId = new Map(loaded.map((r) => [r.result_id, r]));
    await context.query(`DELETE FROM ${context.table('answer_changes')} c USING unnest($1::text[]) AS u(id) WHERE c.result_id = u.id`, [[...pairs.keys()]]);
    const rows: ChangeRow[] = [];
    /** When each change was found: the recording of the analysis that made it (the answer's, or for the answer after it, the one before). */
    const foundAt = new Map<string, Date>();
    for (const [currentId, previousId] of pairs) {
      const current = byId.get(currentId);
      const previous = previousId === null ? undefined : byId.get(previousId);
      if (!current || !previous) continue;
      const at = recordedAt.get(currentId) ?? recordedAt.get(previous.result_id)!;
      for (const c of detectChanges(previous.snapshot, current.snapshot)) {
        foundAt.set(changeId(currentId, c), at);
        rows.push({
          id: changeId(currentId, c),
          organization_id: Number(current.organization_id),
          client_id: current.client_id === null ? null : Number(current.client_id),
          brand_id: Number(current.brand_id),
          result_id: currentId,
          previous_result_id: previous.result_id,
          provider: current.provider,
          prompt_id: current.prompt_id === null ? null : Number(current.prompt_id),
          query: current.query,
          country: current.country,
          language: current.language,
          change_type: c.type,
          severity: c.severity,
          severity_rank: severityRank(c.severity),
          entity_id: c.entity.id,
          entity_name: c.entity.name,
          entity_kind: c.entity.kind,
          domain: c.domain,
          before: c.before,
          after: c.after,
          asked_at: current.asked_at.toISOString(),
          previous_asked_at: previous.asked_at.toISOString(),
          day: current.asked_at.toISOString().slice(0, 10),
        });
      }
    }
    for (let k = 0; k < rows.length; k += 5000) await upsertRows(context, ANSWER_CHANGES, rows.slice(k, k + 5000));
    if (context.rebuilding || !rows.length) return;
    const subscribed = await organizationsSubscribedTo(context.query, 'change.detected', rows.map((r) => r.organization_id));
    if (!subscribed.size) return;
    await dispatchWebhookEvents(
      context.query,
      rows.filter((r) => subscribed.has(r.organization_id)).map((r) => {
        const timestamp = foundAt.get(r.id)!.toISOString();
        return {
          event_id: derivedUuid(`change:${r.organization_id}:${r.id}`, 'change.detected'),
          organization_id: r.organization_id,
          client_id: r.client_id,
          type: 'change.detected',
          body: JSON.stringify({ type: 'change.detected', timestamp, data: changeRecord(r) }),
          event_at: timestamp,
        };
      }),
    );
  },
};
