import type { RecordedEvent } from '@libs/event-store';
import type { OpportunityEventDto } from '../opportunity.dto';

/** An event of an opportunity's stream as the API shows it (GET /opportunities/{id}/events, the MCP tools). */
export function opportunityEventRecord(e: RecordedEvent): OpportunityEventDto {
  return {
    position: Number(e.streamPosition),
    type: e.type,
    data: e.data,
    actor: (e.metadata.actor as string | undefined) ?? null,
    reason: (e.metadata.reason as string | undefined) ?? null,
    correlationId: (e.metadata.correlationId as string | undefined) ?? null,
    recordedAt: e.recordedAt.toISOString(),
  };
}
