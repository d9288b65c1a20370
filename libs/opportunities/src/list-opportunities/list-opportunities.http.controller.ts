import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandAccess } from '@libs/tenancy';
import type { FastifyReply } from 'fastify';
import { sendJsonText } from '@libs/http';
import { OpportunityPage } from '../opportunity.dto';
import { ListOpportunities } from './list-opportunities.query';
import { READ_MODEL_PROJECTIONS, ReadYourWrites } from '../read-your-writes';
import { ListOpportunitiesQuery } from './list-opportunities.request.dto';

@ApiTags('Opportunities')
@Controller('api/v1/opportunities')
export class ListOpportunitiesController {
  constructor(
    private readonly listing: ListOpportunities,
    private readonly ryw: ReadYourWrites,
    private readonly brands: BrandAccess,
  ) {}

  @Get()
  @RequireScope('read:opportunities')
  @ApiOperation({ summary: 'The opportunity queue', description: 'Non-terminal opportunities unless includeTerminal=true; filters combine.' })
  @ApiOkResponse({ type: OpportunityPage })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListOpportunitiesQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    if (q.brandId !== undefined) await this.brands.assertVisible(p, q.brandId);
    await this.ryw.waitFor(p.subject, READ_MODEL_PROJECTIONS);
    return sendJsonText(reply, await this.listing.json(p, q));
  }
}
