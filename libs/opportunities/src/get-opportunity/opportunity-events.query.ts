import { Injectable } from '@nestjs/common';
import type { Principal } from '@libs/auth';
import { BrandAccess } from '@libs/tenancy';
import type { OpportunityEventDto } from '../opportunity.dto';
import { OpportunityRepository } from '../opportunity.repository';
import { opportunityEventRecord } from '../read-model/opportunity-event';

/** An opportunity's history from its stream in the event store, oldest first; null when the caller cannot see it. */
@Injectable()
export class OpportunityEvents {
  constructor(
    private readonly repository: OpportunityRepository,
    private readonly brands: BrandAccess,
  ) {}

  async list(p: Principal, id: number): Promise<OpportunityEventDto[] | null> {
    const history = await this.repository.history(id);
    const first = history[0];
    if (!first || !(await this.brands.canSeeResource(p, { organizationId: Number(first.data.organizationId), brandId: Number(first.data.brandId) }))) return null;
    return history.map(opportunityEventRecord);
  }
}
