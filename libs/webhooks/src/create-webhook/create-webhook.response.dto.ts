import { ApiProperty } from '@nestjs/swagger';
import { WebhookDto } from '../webhook.dto';

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret (Standard Webhooks). Shown once, now; never again.' })
  secret!: string;
}

export class CreatedWebhookResponse {
  @ApiProperty({ type: CreatedWebhookDto }) data!: CreatedWebhookDto;
}
