import { ApiProperty } from '@nestjs/swagger';
import { WebhookDto } from '../webhook.dto';

class PageMetaDto {
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty() hasMore!: boolean;
}
export class WebhookListResponse {
  @ApiProperty({ type: [WebhookDto] }) data!: WebhookDto[];
  @ApiProperty({ type: PageMetaDto }) meta!: PageMetaDto;
}
