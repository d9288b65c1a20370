import { ApiProperty } from '@nestjs/swagger';
import { OwnerDto, ProviderCountDto } from '../shared/citation.dto';

/** A cited URL of a brand's answers (a citation source record). */
export class CitationSourceRecordDto {
  @ApiProperty({ type: 'integer', example: 41 }) id!: number;
  @ApiProperty({ example: 'https://www.g2.com/categories/crm' }) url!: string;
  @ApiProperty({ example: 'g2.com' }) domain!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The latest title an engine gave it' }) title!: string | null;
  @ApiProperty({ type: OwnerDto }) owner!: OwnerDto;
  @ApiProperty({ type: 'integer', description: 'Times it was cited' }) citations!: number;
  @ApiProperty({ type: 'integer', description: 'Answers citing it' }) answers!: number;
  @ApiProperty({ type: [ProviderCountDto], description: 'The providers citing it, most citations first' }) providers!: ProviderCountDto[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null when no analysed answer cites it any longer (a re-analysis dropped it)' }) firstSeen!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSeen!: string | null;
}
