import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DecisionRunner, EVENT_STORE, type EventStore, type FeedPosition, type LoadedState as LoadedDeciderState, type RecordedEvent } from '@libs/event-store';
import { poolOf, preparedQuery } from '@libs/sql';
import { OPPORTUNITY_STATE_COLUMNS, opportunityRowFromSql } from './read-model/opportunity-row';
import { asOpportunityEvent, opportunityDecider, OpportunityRuleError, streamOf, type OpportunityCommand, type OpportunityEvent, type OpportunityState } from './domain';

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

/** A state to decide on and where it was read: the stream's fold (authoritative) or the projection's row. */
export type LoadedState = LoadedDeciderState<OpportunityState | null>;

/**
 * The opportunity streams on the event-sourcing kit: the pure `opportunityDecider` rules on a
 * command, libs/event-store's DecisionRunner loads, appends with the revision the decision was made
 * on and, on a conflict, decides again on the newer state (nothing lost, nothing applied twice).
 */
@Injectable()
export class OpportunityRepository {
  private readonly runner: DecisionRunner<OpportunityState | null, OpportunityCommand, OpportunityEvent>;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    private readonly dataSource: DataSource,
  ) {
    this.runner = new DecisionRunner(store, {
      decider: opportunityDecider,
      decode: asOpportunityEvent,
      isRefusal: (error) => error instanceof OpportunityRuleError,
      conflict: (streamId) => new OpportunityRuleError('conflict', `opportunity ${streamId.slice('opportunity-'.length)} kept changing; try again`),
    });
  }

  async nextId(): Promise<number> {
    const [{ id }]: { id: string }[] = await this.dataSource.query(`SELECT nextval('opportunity_ids') AS id`);
    return Number(id);
  }

  async history(id: number): Promise<RecordedEvent[]> {
    return (await this.runner.history(streamOf(id))).recorded;
  }

  async load(id: number): Promise<OpportunityState | null> {
    return (await this.runner.load(streamOf(id))).state;
  }

  /**
   * The state to decide on first: the list projection's row when it has one (one index probe
   * instead of reading and folding the stream), else the stream's fold. A row is never newer than
   * the stream; when it is older, the append's expected revision fails and `execute` decides again
   * on the stream's fold, so a decision is only ever recorded against the latest state.
   */
  async loadForDecision(id: number): Promise<LoadedState> {
    const rows = await preparedQuery<Record<string, unknown>>(poolOf(this.dataSource), `SELECT ${OPPORTUNITY_STATE_COLUMNS} FROM opportunities WHERE id = $1`, [id]);
    if (!rows.length) return this.runner.load(streamOf(id));
    const state = opportunityRowFromSql(rows[0]).state;
    return { state, revision: state.version, source: 'projection' };
  }

  /** Folds the events recorded up to `asOf` ("what did it look like then"). */
  async loadAsOf(id: number, asOf: Date): Promise<OpportunityState | null> {
    return this.runner.loadAsOf(streamOf(id), asOf);
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
    const result = await this.runner.run(
      streamOf(id),
      command,
      { organizationId: meta.organizationId, actor: meta.actor, correlationId: meta.correlationId, causationId: meta.causationId ?? null, reason: meta.reason ?? null },
      loaded,
    );
    return { state: result.state!, position: result.position, events: result.events };
  }
}
