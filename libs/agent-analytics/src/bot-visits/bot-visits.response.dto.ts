import { PageOf } from '@libs/http';
import { BotVisitDto } from '../agent-analytics.dto';

export class BotVisitPage extends PageOf(BotVisitDto) {}
