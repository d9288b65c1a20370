import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { organizationFacts, type OrganizationFactRow } from '@libs/tenancy';
import type { JudgeProvider } from './judge-wire';

/** An organisation's sentiment-judge choice (`cli judge set`): off unless set. */
export interface OrganizationJudgeSettings {
  organizationId: number;
  provider: JudgeProvider | 'off';
  /** null: the deployment's SENTIMENT_JUDGE_MODEL. */
  model: string | null;
  updatedAt: string | null;
}

/** How long a worker trusts what it read of an organisation's choice (a `judge set` reaches every worker within it). */
const TTL_MS = 10_000;

/** `sentiment_judge_settings`: which organisations have the judge on, with which provider and model. */
@Injectable()
export class JudgeSettingsRepository {
  private readonly cache = new Map<number, { at: number; settings: OrganizationJudgeSettings }>();

  constructor(private readonly dataSource: DataSource) {}

  async get(organizationId: number, fresh = false): Promise<OrganizationJudgeSettings> {
    const hit = this.cache.get(organizationId);
    if (!fresh && hit && Date.now() - hit.at < TTL_MS) return hit.settings;
    const [row]: { provider: JudgeProvider; model: string | null; updated_at: Date }[] = await this.dataSource.query(
      'SELECT provider, model, updated_at FROM sentiment_judge_settings WHERE organization_id = $1',
      [organizationId],
    );
    const settings: OrganizationJudgeSettings = row
      ? { organizationId, provider: row.provider, model: row.model, updatedAt: row.updated_at.toISOString() }
      : { organizationId, provider: 'off', model: null, updatedAt: null };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(organizationId, { at: Date.now(), settings });
    return settings;
  }

  /** Turns the judge on (a provider) or off for the organisation; RangeError when it does not exist. */
  async set(organizationId: number, provider: JudgeProvider | 'off', model: string | null): Promise<OrganizationJudgeSettings> {
    const exists = organizationFacts(organizationId);
    const [org]: OrganizationFactRow[] = await this.dataSource.query(exists.text, exists.params);
    if (!org) throw new RangeError(`organisation ${organizationId} does not exist`);
    if (provider === 'off') await this.dataSource.query('DELETE FROM sentiment_judge_settings WHERE organization_id = $1', [organizationId]);
    else {
      await this.dataSource.query(
        `INSERT INTO sentiment_judge_settings (organization_id, provider, model, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (organization_id) DO UPDATE SET provider = EXCLUDED.provider, model = EXCLUDED.model, updated_at = now()`,
        [organizationId, provider, model],
      );
    }
    this.cache.delete(organizationId);
    return this.get(organizationId, true);
  }
}
