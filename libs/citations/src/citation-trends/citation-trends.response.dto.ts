import { ApiProperty } from '@nestjs/swagger';
import { SeriesPointDto } from '@libs/http';
import { EntityDto } from '../shared/citation.dto';

export class CitationCountsPointDto {
  @ApiProperty({ type: 'string', format: 'date' }) date!: string;
  @ApiProperty({ type: 'integer', description: 'Analysed answers that day (0: no data, the counts are null)' }) answers!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Citations of the brand’s domains' }) brand!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Citations of competitors’ domains' }) competitor!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Citations of other domains' }) other!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'All citations' }) total!: number | null;
}

export class CitationTrendsDto {
  @ApiProperty({ type: EntityDto }) brand!: EntityDto;
  @ApiProperty({ type: 'string', format: 'date' }) startDate!: string;
  @ApiProperty({ type: 'string', format: 'date' }) endDate!: string;
  @ApiProperty({ type: [SeriesPointDto], description: 'Citation rate per day: answers citing a domain of the brand / answers with at least one citation (n, 95 % Wilson interval; a day without such answers has n: 0 and nulls)' })
  citationRate!: SeriesPointDto[];
  @ApiProperty({ type: [CitationCountsPointDto], description: 'Citations per day by owner' }) counts!: CitationCountsPointDto[];
}

export class CitationTrendsResponse {
  @ApiProperty({ type: CitationTrendsDto }) data!: CitationTrendsDto;
}
