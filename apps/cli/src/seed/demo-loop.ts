import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { ProjectionRunnerService } from '@libs/projection-engine';
import { OpportunityRepository, type Status } from '@libs/opportunities';
import { DetectorPass, fingerprintOf, seriesKey } from '@libs/detectors';
import { ChannelsRepository, CLI_IMPORT_CREDENTIAL, MetricsImporter } from '@libs/channels';
import type { Provider } from '@libs/analysis';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The closed loop told by the demo's history (DESIGN §13.4). Three series of Acme CRM's answers
 * carry a story (the recorded source's standing is moved for them, `standingShift`); everything
 * else in the history is the recorded source as it is. The opportunities are opened, verified,
 * resolved or regressed and their outcomes finalised by the real detector pass, replayed at the
 * moments given here (`asOf`); only what people do (triage, assign, start, deploy the fix, ask for
 * verification) is written by the seed, dated, as a person would. Days count back from the last
 * seeded day (0 = yesterday).
 */
export interface LoopStory {
  name: 'resolved' | 'regressed' | 'waiting';
  query: string;
  provider: Provider;
  /** The brand drops out of this series' answers from this day on. */
  dropFrom: number;
  /** ... and is back (first in nearly every answer) from this day on; null: it never comes back. */
  backFrom: number | null;
  /** When the detector pass that opens it runs (days back, hour UTC). */
  detectAt: [number, number];
  /** Who works on it, and the fix they deploy. */
  owner: string;
  fix: string;
  /** People's steps after the detection, each at (days back, hour UTC). */
  steps: { to: Status; at: [number, number] }[];
  /** When the pass that verifies the fix runs (null: the worker's own passes find too few answers yet). */
  verifyAt: [number, number] | null;
}

/** Days of history the stories need: the earliest drop (61 days back) after a baseline of 28 answers. */
export const LOOP_MIN_HISTORY_DAYS = 90;

export const LOOP_STORIES: readonly LoopStory[] = [
  {
    name: 'resolved',
    query: 'best CRM for small businesses',
    provider: 'chatgpt',
    dropFrom: 61,
    backFrom: 49,
    detectAt: [55, 12],
    owner: 'ana@demo.agency',
    fix: 'Small-business landing page rewritten answer-first, with a pricing table and Product schema',
    steps: [
      { to: 'triaged', at: [55, 15] },
      { to: 'assigned', at: [54, 9] },
      { to: 'in_progress', at: [54, 10] },
      { to: 'fix_deployed', at: [50, 10] },
      { to: 'verifying', at: [50, 11] },
    ],
    verifyAt: [42, 12],
  },
  {
    name: 'regressed',
    query: 'best CRM for startups',
    provider: 'perplexity',
    dropFrom: 40,
    backFrom: null,
    detectAt: [33, 12],
    owner: 'bruno@demo.agency',
    fix: 'Startup plan page added to the sitemap and linked from the comparison pages',
    steps: [
      { to: 'assigned', at: [32, 9] },
      { to: 'in_progress', at: [32, 10] },
      { to: 'fix_deployed', at: [30, 16] },
      { to: 'verifying', at: [30, 17] },
    ],
    verifyAt: [21, 12],
  },
  {
    name: 'waiting',
    query: 'easiest CRM to set up',
    provider: 'claude',
    dropFrom: 20,
    backFrom: null,
    detectAt: [13, 12],
    owner: 'chloe@demo.agency',
    fix: 'Onboarding guide published with HowTo schema and a five-minute setup summary',
    steps: [
      { to: 'triaged', at: [13, 14] },
      { to: 'assigned', at: [12, 9] },
      { to: 'in_progress', at: [12, 10] },
      { to: 'fix_deployed', at: [3, 10] },
      { to: 'verifying', at: [3, 11] },
    ],
    verifyAt: null,
  },
];

/**
 * How the stories move the brand's standing in the recorded source, for the UTC day number `day`
 * when the last seeded day is `lastDay`: before its drop the series' brand is strong (+0.3, in
 * the top 3 most days), while dropped it is left out (-1), once back it leads (+0.5).
 */
export function loopStandingShift(lastDay: number): (provider: Provider, query: string, day: number) => number {
  return (provider, query, day) => {
    const story = LOOP_STORIES.find((s) => s.provider === provider && s.query === query);
    if (!story) return 0;
    const back = lastDay - day;
    if (story.backFrom !== null && back <= story.backFrom) return 0.5;
    return back <= story.dropFrom ? -1 : 0.3;
  };
}

export interface LoopSeeded {
  /** The story's opportunity: its id and where the loop left it. */
  stories: { name: LoopStory['name']; opportunityId: number | null; status: string | null }[];
  /** Opportunities the replayed detector passes opened in all (the stories' and what else the history showed). */
  opened: number;
  /** The demo client's import channel with daily sessions, AI sessions, conversions and revenue. */
  channelId: number;
}

/**
 * Daily channel rows for the brand (an import channel, through the importer the API uses): the
 * site's sessions with a weekly rhythm, AI-referred sessions, conversions and revenue. AI sessions
 * rise by a quarter once the resolved story's fix holds (the brand is back in ChatGPT's answers),
 * and conversions follow sessions, so the resolved outcome has money to report.
 */
function channelRows(brandId: number, lastDay: number, days: number, rand: () => number): string {
  const lift = LOOP_STORIES.find((s) => s.name === 'resolved')!.backFrom!;
  const lines: string[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const day = lastDay - back;
    const weekday = new Date(day * DAY).getUTCDay();
    const weekly = weekday === 0 || weekday === 6 ? 0.7 : 1;
    const sessions = Math.round((2300 + rand() * 400) * weekly);
    const aiSessions = Math.round((110 + rand() * 30) * weekly * (back <= lift ? 1.25 : 1));
    const conversions = Math.round(sessions * 0.012 + aiSessions * 0.04);
    lines.push(JSON.stringify({ date: new Date(day * DAY).toISOString().slice(0, 10), brandId, sessions, users: Math.round(sessions * 0.8), aiSessions, conversions, revenue: conversions * 59 }));
  }
  return lines.join('\n') + '\n';
}

/** Replays the loop over the brand's seeded history (see LOOP_STORIES); the history must have been written with `loopStandingShift`. */
export async function seedLoop(
  app: INestApplicationContext,
  input: { organizationId: number; clientId: number; brandId: number; promptIds: ReadonlyMap<string, number>; lastDay: Date; historyDays: number; rand: () => number },
): Promise<LoopSeeded> {
  const { organizationId, brandId } = input;
  const lastDay = Math.floor(input.lastDay.getTime() / DAY);
  const at = ([back, hour]: [number, number]) => new Date((lastDay - back) * DAY + hour * HOUR);
  const store = app.get<EventStore>(EVENT_STORE);
  const projections = app.get(ProjectionRunnerService);
  const pass = app.get(DetectorPass);
  const repository = app.get(OpportunityRepository);
  // The pass reads the answers' and the opportunities' read models: wait until they hold every event written so far.
  const caughtUp = async () => {
    if (!(await projections.waitFor(await store.newestPosition(), 300_000))) throw new Error('the read models did not catch up with the seeded history within 5 minutes');
  };

  const channels = app.get(ChannelsRepository);
  const channel = await channels.create(organizationId, {
    clientId: input.clientId,
    kind: 'import',
    name: 'Site analytics (demo import)',
    brandId,
    propertyId: null,
    siteUrl: null,
    credentialsSealed: null,
    backfillDays: 30,
    isActive: true,
  });
  await app.get(MetricsImporter).import(channel, 'ndjson', Buffer.from(channelRows(brandId, lastDay, input.historyDays, input.rand)), { key: 'demo-seed', credential: CLI_IMPORT_CREDENTIAL });

  // Every moment the story acts, in order: passes of the detectors and people's steps.
  type Moment = { at: Date; run: () => Promise<void> };
  const moments: Moment[] = [];
  const ids = new Map<LoopStory['name'], number>();
  let opened = 0;
  const runPass = async (when: Date) => {
    await caughtUp();
    const result = await pass.run(organizationId, brandId, null, `demo-loop-${when.toISOString()}`, when);
    opened += result.opened.length;
  };
  for (const story of LOOP_STORIES) {
    moments.push({ at: at(story.detectAt), run: () => runPass(at(story.detectAt)) });
    for (const step of story.steps) {
      moments.push({
        at: at(step.at),
        run: async () => {
          await caughtUp();
          const id = ids.get(story.name) ?? (await findStory(app, organizationId, brandId, fingerprintOf('dropped_from_top3', brandId, seriesKey(input.promptIds.get(story.query) ?? null, story.query), story.provider)));
          if (id === null) throw new Error(`the demo's "${story.name}" story: the detectors did not open dropped_from_top3 for "${story.query}" on ${story.provider}`);
          ids.set(story.name, id);
          const reason = step.to === 'fix_deployed' ? story.fix : null;
          await repository.execute(id, (s) => ({ kind: 'transition', toStatus: step.to, owner: step.to === 'assigned' ? story.owner : (s?.owner ?? null), reason, now: at(step.at) }), {
            organizationId,
            actor: story.owner,
            correlationId: `demo-loop-${story.name}`,
            reason,
          });
        },
      });
    }
    if (story.verifyAt) moments.push({ at: at(story.verifyAt), run: () => runPass(at(story.verifyAt!)) });
  }
  // The resolved story's outcome: a pass once its window after resolution has passed.
  const resolved = LOOP_STORIES.find((s) => s.name === 'resolved')!;
  const outcomeAt: [number, number] = [resolved.verifyAt![0] - 15, 12];
  moments.push({ at: at(outcomeAt), run: () => runPass(at(outcomeAt)) });
  moments.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const m of moments) await m.run();
  await caughtUp();

  const stories: LoopSeeded['stories'] = [];
  for (const story of LOOP_STORIES) {
    const id = ids.get(story.name) ?? null;
    const state = id === null ? null : await repository.load(id);
    stories.push({ name: story.name, opportunityId: id, status: state?.status ?? null });
  }
  return { stories, opened, channelId: channel.id };
}

/** The opportunity the detectors opened for a story's series (the newest with its fingerprint). */
async function findStory(app: INestApplicationContext, organizationId: number, brandId: number, fingerprint: string): Promise<number | null> {
  const rows: { id: string }[] = await app.get(DataSource).query(
    `SELECT id FROM opportunities WHERE organization_id = $1 AND brand_id = $2 AND fingerprint = $3 ORDER BY id DESC LIMIT 1`,
    [organizationId, brandId, fingerprint],
  );
  return rows.length ? Number(rows[0].id) : null;
}
