import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { BrandPeriodPageQuery, SortBy, sortFields } from '@libs/http';
import { OWNERS, type Owner } from '../domain';

export const SOURCE_SORTS = sortFields({ citations: 'citations', answers: 'answers', lastSeen: 'last_seen', firstSeen: 'first_seen', url: 'url', domain: 'domain' });

/** A brand's cited URLs over a period, with the answer filters, by domain and owner. */
export class ListCitationSourcesQuery extends BrandPeriodPageQuery {
  @ApiPropertyOptional({ description: 'Only URLs of this domain (host without www.)', example: 'g2.com', maxLength: 253 })
  @IsOptional()
  @IsString({ message: 'domain must be a string' })
  @MaxLength(253, { message: 'domain must be at most 253 characters' })
  domain?: string;

  @ApiPropertyOptional({ description: 'Only URLs of this owner', enum: OWNERS })
  @IsOptional()
  @IsIn(OWNERS, { message: `owner must be one of ${OWNERS.join(', ')}` })
  owner?: Owner;

  @SortBy(SOURCE_SORTS, 'citations')
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order: 'asc' | 'desc' = 'desc';
}
