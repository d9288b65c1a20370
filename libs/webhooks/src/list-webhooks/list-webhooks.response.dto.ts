import { PageOf } from '@libs/http';
import { WebhookDto } from '../webhook.dto';

export class WebhookListResponse extends PageOf(WebhookDto) {}
