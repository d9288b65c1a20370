import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import type { FastifyReply } from 'fastify';
import { ApiError, ParseIdPipe, sendJsonText } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { OpportunityEventsResponse, OpportunityResponse } from '../opportunity.dto';
import { GetOpportunity } from './get-opportunity.query';
import { OpportunityEvents } from './opportunity-events.query';
import { OpportunityRepository } from '../opportunity.repository';
import { READ_MODEL_PROJECTIONS, ReadYourWrites } from '../read-your-writes';
import { GetOpportunityQuery } from './get-opportunity.request.dto';

@ApiTags('Opportunities')
@Controller('api/v1/opportunities')
export class GetOpportunityController {
  constructor(
    private readonly reads: GetOpportunity,
    private readonly repository: OpportunityRepository,
    private readonly brands: BrandAccess,
    private readonly ryw: ReadYourWrites,
    private readonly history: OpportunityEvents,
  ) {}

  @Get(':id')
  @RequireScope('read:opportunities')
  @ApiOperation({ summary: 'One opportunity', description: 'With asOf, as it was at that time.' })
  @ApiOkResponse({ type: OpportunityResponse })
  async get(
    @CurrentPrincipal() p: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Query() q: GetOpportunityQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OpportunityResponse | string> {
    if (q.asOf !== undefined) {
      const asOf = new Date(q.asOf);
      if (Number.isNaN(asOf.getTime())) throw ApiError.validation([{ field: 'asOf', message: 'asOf must be an ISO 8601 date or date-time' }]);
      return this.reads.asOf(p, id, asOf);
    }
    await this.ryw.waitFor(p.subject, READ_MODEL_PROJECTIONS);
    const record = await this.reads.json(p, id);
    if (record === null) throw ApiError.notFound(`Opportunity ${id}`);
    return sendJsonText(reply, `{"data":${record}}`);
  }

  @Get(':id/events')
  @RequireScope('read:opportunities')
  @ApiOperation({ summary: "An opportunity's history", description: 'Every change, with actor, reason and time, oldest first.' })
  @ApiOkResponse({ type: OpportunityEventsResponse })
  async events(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<OpportunityEventsResponse> {
    const events = await this.history.list(p, id);
    if (events === null) throw ApiError.notFound(`Opportunity ${id}`);
    return { data: events };
  }
}
