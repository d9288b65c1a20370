import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';

/**
 * Whether a caller may see an opportunity: same organisation and, for a client-bound
 * credential, a brand of that client. (A brand's organisation and client never change, so the
 * brand → client map is cached.)
 */
@Injectable()
export class OpportunityAccess {
  private readonly brandClients = new Map<number, number | null>();

  constructor(private readonly dataSource: DataSource) {}

  async brandClient(brandId: number): Promise<number | null | undefined> {
    if (this.brandClients.has(brandId)) return this.brandClients.get(brandId);
    const rows: { client_id: string | null }[] = await this.dataSource.query('SELECT client_id FROM brands WHERE id = $1', [brandId]);
    if (!rows.length) return undefined;
    const client = rows[0].client_id === null ? null : Number(rows[0].client_id);
    if (this.brandClients.size > 100_000) this.brandClients.clear();
    this.brandClients.set(brandId, client);
    return client;
  }

  async canSee(principal: Principal, opportunity: { organizationId: number; brandId: number }): Promise<boolean> {
    if (opportunity.organizationId !== principal.organizationId) return false;
    if (principal.clientId === null) return true;
    return (await this.brandClient(opportunity.brandId)) === principal.clientId;
  }

  /** The brand is the caller's to use (exists in its organisation, and its client when bound). */
  async canUseBrand(principal: Principal, brandId: number): Promise<boolean> {
    const rows: { client_id: string | null }[] = await this.dataSource.query('SELECT client_id FROM brands WHERE id = $1 AND organization_id = $2', [
      brandId,
      principal.organizationId,
    ]);
    if (!rows.length) return false;
    return principal.clientId === null || (rows[0].client_id !== null && Number(rows[0].client_id) === principal.clientId);
  }
}
