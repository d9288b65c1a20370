import { PageOf } from '@libs/http';
import { BotVisitDto } from '../agent-analytics.dto';

export class VisitPage extends PageOf(BotVisitDto) {}
