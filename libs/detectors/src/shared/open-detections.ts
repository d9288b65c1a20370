import { CommandBus } from '@nestjs/cqrs';
import type { DataSource } from 'typeorm';
import { DetectOpportunityCommand, type OpportunityType } from '@libs/opportunities';
import type { Severity } from '../domain';
import { SYSTEM_ACTOR } from './verifying';

/** What every detector reports: an opportunity to open, keyed by its fingerprint. */
export interface Reported {
  type: OpportunityType;
  severity: Severity;
  title: string;
  description: string;
  evidence: Record<string, unknown>;
  fingerprint: string;
}

/** The fingerprints of the brand's open (not terminal) opportunities, of the given types (all when omitted). */
export async function openFingerprints(dataSource: DataSource, organizationId: number, brandId: number, types?: readonly string[]): Promise<Set<string>> {
  const rows: { fingerprint: string }[] = await dataSource.query(
    `SELECT fingerprint FROM opportunities WHERE organization_id = $1 AND brand_id = $2 AND NOT terminal AND ($3::text[] IS NULL OR type = ANY($3::text[]))`,
    [organizationId, brandId, types ? [...types] : null],
  );
  return new Set(rows.map((r) => r.fingerprint));
}

/**
 * Opens what the detectors reported, through the detect command (source `detector:<type>`, actor
 * `system`): a fingerprint already open is given back as such; one seen again after `resolved`
 * opens a new opportunity linked to the old one. `asOf` dates the detection (the demo's replay).
 */
export async function openDetections(
  commands: CommandBus,
  reports: readonly Reported[],
  scope: { organizationId: number; brandId: number },
  correlationId: string,
  asOf?: Date,
): Promise<{ opened: number[]; alreadyOpen: number[] }> {
  const opened: number[] = [];
  const alreadyOpen: number[] = [];
  for (const d of reports) {
    const result = await commands.execute(
      new DetectOpportunityCommand(
        {
          ...scope,
          type: d.type,
          severity: d.severity,
          title: d.title,
          description: d.description,
          evidence: d.evidence,
          source: `detector:${d.type}`,
          fingerprint: d.fingerprint,
          ...(asOf ? { detectedAt: asOf } : {}),
        },
        SYSTEM_ACTOR,
        correlationId,
      ),
    );
    (result.created ? opened : alreadyOpen).push(result.state.id);
  }
  return { opened, alreadyOpen };
}
