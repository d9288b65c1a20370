import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_STORE, ExpectedRevision, WrongExpectedRevisionError, type EventStore, type FeedPosition, type RecordedEvent } from '@libs/event-store';
import { poolOf, preparedQuery } from '@libs/sql';
import { OPPORTUNITY_STATE_COLUMNS, opportunityRowFromSql } from './read-model/opportunity-row';
import { decide, fold, OpportunityRuleError, streamOf, evolve, type OpportunityCommand, type OpportunityEvent, type OpportunityState } from './domain';

export interface CommandMetadata {
  organizationId: number;
  actor: string;
  correlationId: string;
  causationId?: string | null;
  reason?: string | null;
}

export interface CommandResult {
  state: OpportunityState;
  position: FeedPosition;
  events: OpportunityEvent[];
}

/** Conflicts retried before giving up with 409 (each retry decides again on the newer state). */
const MAX_ATTEMPTS = 25;

/** A state to decide on and where it was read: the stream's fold (authoritative) or the projection's row. */
export interface LoadedState {
  state: OpportunityState | null;
  source: 'stream' | 'projection';
}

export const toDomainEvent = (e: RecordedEvent): OpportunityEvent => ({ type: e.type, data: e.data }) as OpportunityEvent;

/**
 * Loads an opportunity from its stream, lets the pure `decide` rule on a command, and appends
 * the events with the revision the decision was made on. On a conflict (someone else appended
 * first) it reloads and decides again, so a concurrent request is judged against the state the
 * other one produced; nothing is lost and nothing applied twice.
 */
@Injectable()
export class OpportunityRepository {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {}

  async nextId(): Promise<number> {
    const [{ id }]: { id: string }[] = await this.dataSource.query(`SELECT nextval('opportunity_ids') AS id`);
    return Number(id);
  }

  async history(id: number): Promise<RecordedEvent[]> {
    return this.store.readStream(streamOf(id));
  }

  async load(id: number): Promise<OpportunityState | null> {
    return fold((await this.history(id)).map(toDomainEvent));
  }

  /**
   * The state to decide on first: the list projection's row when it has one (one index probe
   * instead of reading and folding the stream), else the stream's fold. A row is never newer than
   * the stream; when it is older, the append's expected revision fails and `execute` decides again
   * on the stream's fold, so a decision is only ever recorded against the latest state.
   */
  async loadForDecision(id: number): Promise<LoadedState> {
    const rows = await preparedQuery<Record<string, unknown>>(poolOf(this.dataSource), `SELECT ${OPPORTUNITY_STATE_COLUMNS} FROM opportunities WHERE id = $1`, [id]);
    return rows.length ? { state: opportunityRowFromSql(rows[0]).state, source: 'projection' } : { state: await this.load(id), source: 'stream' };
  }

  /** Folds the events recorded up to `asOf` ("what did it look like then"). */
  async loadAsOf(id: number, asOf: Date): Promise<OpportunityState | null> {
    const events = (await this.history(id)).filter((e) => e.recordedAt.getTime() <= asOf.getTime());
    return fold(events.map(toDomainEvent));
  }

  /**
   * `loaded`: the state the caller just loaded, used for the first attempt (saves a read). When it
   * came from the projection, a rule the command breaks on it is checked again on the stream's
   * fold before it is reported (the projection may not have caught up yet).
   */
  async execute(
    id: number,
    command: (state: OpportunityState | null) => OpportunityCommand,
    meta: CommandMetadata,
    loaded?: LoadedState,
  ): Promise<CommandResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const first = attempt === 0 && loaded !== undefined;
      const state = first ? loaded.state : await this.load(id);
      let events: OpportunityEvent[];
      try {
        events = decide(state, command(state));
      } catch (error) {
        if (first && loaded.source === 'projection' && error instanceof OpportunityRuleError) continue;
        throw error;
      }
      try {
        const result = await this.store.appendToStream(
          streamOf(id),
          events.map((e) => ({
            type: e.type,
            data: e.data as unknown as Record<string, unknown>,
            metadata: { organizationId: meta.organizationId, actor: meta.actor, correlationId: meta.correlationId, causationId: meta.causationId ?? null, reason: meta.reason ?? null },
          })),
          state ? ExpectedRevision.exact(state.version) : ExpectedRevision.noStream,
        );
        return { state: events.reduce<OpportunityState | null>(evolve, state)!, position: result.position, events };
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) {
          // A first attempt on a given (possibly projected, older) state retries at once on the stream.
          if (attempt > 0 || loaded === undefined) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
          continue;
        }
        throw error;
      }
    }
    throw new OpportunityRuleError('conflict', `opportunity ${id} kept changing; try again`);
  }
}
