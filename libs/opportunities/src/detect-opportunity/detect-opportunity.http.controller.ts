import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BrandAccess } from '@libs/tenancy';
import { OpportunityResponse, toRecord } from '../opportunity.dto';
import { toApiError } from '../opportunity-errors';
import { DetectOpportunityCommand } from './detect-opportunity.command';
import { DetectOpportunityRequest } from './detect-opportunity.request.dto';

@ApiTags('Opportunities')
@Controller('api/v1/opportunities')
export class DetectOpportunityController {
  constructor(
    private readonly commands: CommandBus,
    private readonly brands: BrandAccess,
  ) {}

  @Post()
  @RequireScope('write:opportunities')
  @ApiOperation({
    summary: 'Report an opportunity (for teams with their own detectors)',
    description: 'While an opportunity with the same fingerprint is open, the report returns that one (200) instead of a duplicate (201).',
  })
  @ApiCreatedResponse({ type: OpportunityResponse, description: 'A new opportunity' })
  @ApiOkResponse({ type: OpportunityResponse, description: 'The open opportunity with the same fingerprint' })
  async detect(
    @CurrentPrincipal() p: Principal,
    @Body() body: DetectOpportunityRequest,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OpportunityResponse> {
    await this.brands.assertVisible(p, body.brandId);
    try {
      const result = await this.commands.execute(
        new DetectOpportunityCommand(
          { ...body, organizationId: p.organizationId, source: `api:${p.actor}` },
          { subject: p.subject, actor: p.actor },
          req.id,
        ),
      );
      void reply.status(result.created ? 201 : 200);
      return { data: toRecord(result.state, new Date()) };
    } catch (error) {
      throw toApiError(error, 0);
    }
  }
}
