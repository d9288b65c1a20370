import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '@libs/auth';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from '../domain';
import { WEBHOOK_EXAMPLES } from '../shared/webhook-examples';
import { EventTypesResponse } from './list-webhook-events.response.dto';

@ApiTags('Webhooks')
@Controller('api/v1/webhooks')
export class ListWebhookEventsController {
  @Get('events')
  @RequireScope('read:webhooks')
  @ApiOperation({
    operationId: 'webhooks_events',
    summary: 'Every event type a subscription can list',
    description: `data: the type names; details: each with its meaning and an example payload. ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[t]}`).join(' ')}`,
  })
  @ApiOkResponse({ type: EventTypesResponse })
  events(): EventTypesResponse {
    return {
      data: [...WEBHOOK_EVENT_TYPES],
      details: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENT_DESCRIPTIONS[type], example: WEBHOOK_EXAMPLES[type] as unknown as Record<string, unknown> })),
    };
  }
}
