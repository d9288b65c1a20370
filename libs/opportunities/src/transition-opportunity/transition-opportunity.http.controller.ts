import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { OpportunityResponse, toRecord } from '../opportunity.dto';
import { toApiError } from '../opportunity-errors';
import { TransitionOpportunityCommand } from './transition-opportunity.command';
import { TransitionOpportunityRequest } from './transition-opportunity.request.dto';

@ApiTags('Opportunities')
@Controller('api/v1/opportunities')
export class TransitionOpportunityController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/transition')
  @HttpCode(200)
  @RequireScope('write:opportunities')
  @ApiOperation({ summary: 'Move an opportunity to another state', description: '400 INVALID_TRANSITION with details.from, details.to and details.allowed when the lifecycle does not allow it; 409 CONFLICT when `expectedVersion` is given and the opportunity has changed since.' })
  @ApiOkResponse({ type: OpportunityResponse })
  async transition(
    @CurrentPrincipal() p: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: TransitionOpportunityRequest,
    @Req() req: FastifyRequest,
  ): Promise<OpportunityResponse> {
    try {
      const result = await this.commands.execute(new TransitionOpportunityCommand(id, body.toStatus, body.reason ?? null, body.owner ?? null, p, req.id, body.expectedVersion ?? null));
      return { data: toRecord(result.state, new Date()) };
    } catch (error) {
      throw toApiError(error, id);
    }
  }
}
