import { ApiProperty } from '@nestjs/swagger';
import { PageAuditDto, REASON_CODE_DESCRIPTION } from '../page-audit.dto';

export class AuditedPageDto {
  @ApiProperty({ type: 'integer', example: 0 }) n!: number;
  @ApiProperty({ example: 'https://acme-crm.com/pricing' }) url!: string;
  @ApiProperty({ enum: ['pending', 'scored', 'not_modified', 'failed', 'skipped'], description: 'not_modified: the site answered 304 to the previous audit’s validators and the page was scored again from what that audit read; skipped: robots.txt disallows our agent' }) status!: string;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Why the page failed or was skipped' }) reason!: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: REASON_CODE_DESCRIPTION }) reasonCode!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) httpStatus!: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Where it was fetched from after redirects' }) finalUrl!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, example: 78 }) score!: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) fetchedAt!: string | null;
}

export class PageAuditDetailDto extends PageAuditDto {
  @ApiProperty({ type: [AuditedPageDto] }) pages!: AuditedPageDto[];
}

export class PageAuditDetailResponse {
  @ApiProperty({ type: PageAuditDetailDto }) data!: PageAuditDetailDto;
}
