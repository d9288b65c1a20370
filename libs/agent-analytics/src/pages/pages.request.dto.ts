import { AgentDaysQuery, LimitQuery } from '../agent-queries';

export class PagesQuery extends AgentDaysQuery {
  @LimitQuery(200, 50)
  limit: number = 50;
}
