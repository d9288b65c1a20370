import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe } from '@libs/http';
import { EXAMPLE } from './get-page-audit.example';
import { PageAuditDetailResponse } from './get-page-audit.response.dto';
import { GetPageAudit } from './get-page-audit.query';

@ApiTags('GEO')
@Controller('api/v1/brands/:id/page-audits')
export class GetPageAuditController {
  constructor(private readonly getPageAudit: GetPageAudit) {}

  @Get(':auditId')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'page_audits_get', summary: 'One page audit: its progress and each page’s outcome (score, or the reason it failed)' })
  @ApiOkResponse({ type: PageAuditDetailResponse, example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id, or the brand has no such audit' })
  get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Param('auditId', ParseIdPipe) auditId: number): Promise<PageAuditDetailResponse> {
    return this.getPageAudit.read(p, id, auditId);
  }
}
