import { ApiProperty } from '@nestjs/swagger';
import { FiguresOf, PROVIDERS } from '@libs/http';
import { EntityDto, MeanDto, RateDto } from '../read-model/figure.dto';

export class AeoFiguresDto {
  @ApiProperty({ type: RateDto, description: 'Answers mentioning the brand / answers' }) mentionRate!: RateDto;
  @ApiProperty({ type: MeanDto, description: 'Mean rank where the brand is ranked' }) averagePosition!: MeanDto;
  @ApiProperty({ type: RateDto, description: 'Answers ranking the brand 1-3 / answers mentioning it' }) top3Rate!: RateDto;
  @ApiProperty({ type: RateDto, description: "Answers whose checkable claims agree with the brand's facts / answers with a checkable claim (n: 0 when the brand has no registered facts or no answer makes a claim on them)" }) accuracy!: RateDto;
}
export class ProviderAeoDto extends AeoFiguresDto {
  @ApiProperty({ enum: PROVIDERS }) provider!: string;
}
export class AeoMetricsDto extends FiguresOf(EntityDto, AeoFiguresDto, ProviderAeoDto) {}
export class AeoMetricsResponse {
  @ApiProperty({ type: AeoMetricsDto }) data!: AeoMetricsDto;
}
