import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { organizationFacts, type OrganizationFactRow } from '@libs/tenancy';
import { DEFAULT_THRESHOLDS, THRESHOLD_NAMES, ThresholdsInputError, thresholdsFrom, type Thresholds } from './domain';

/** Detector thresholds by organisation: the defaults, overridden by the settings the organisation changed. */
@Injectable()
export class DetectorThresholdsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async of(organizationId: number): Promise<{ thresholds: Thresholds; custom: (keyof Thresholds)[] }> {
    const rows: { settings: Record<string, unknown> }[] = await this.dataSource.query('SELECT settings FROM detector_thresholds WHERE organization_id = $1', [organizationId]);
    const stored = rows[0]?.settings ?? {};
    return { thresholds: thresholdsFrom(stored), custom: THRESHOLD_NAMES.filter((n) => n in stored) };
  }

  /** Stores the settings that differ from the defaults (null: back to the defaults). */
  async set(organizationId: number, thresholds: Thresholds | null): Promise<{ thresholds: Thresholds; custom: (keyof Thresholds)[] }> {
    if (thresholds === null) await this.dataSource.query('DELETE FROM detector_thresholds WHERE organization_id = $1', [organizationId]);
    else {
      const exists = organizationFacts(organizationId);
      const org: OrganizationFactRow[] = await this.dataSource.query(exists.text, exists.params);
      if (!org.length) throw new ThresholdsInputError(`organisation ${organizationId} does not exist`, null);
      const changed = Object.fromEntries(THRESHOLD_NAMES.filter((n) => thresholds[n] !== DEFAULT_THRESHOLDS[n]).map((n) => [n, thresholds[n]]));
      await this.dataSource.query(
        `INSERT INTO detector_thresholds (organization_id, settings) VALUES ($1, $2) ON CONFLICT (organization_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()`,
        [organizationId, changed],
      );
    }
    return this.of(organizationId);
  }
}
