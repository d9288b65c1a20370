/** Days of the channels' daily rows an outcome compares: `before` ends the day before detection, `after` starts the day of resolution; both `days` long. */
export interface ChannelWindows {
  before: { from: string; to: string };
  after: { from: string; to: string };
  days: number;
}

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOfDay = (d: Date) => Math.floor(d.getTime() / DAY) * DAY;

/**
 * The outcome window in whole days (at least one: the channels' rows are daily, UTC). `to` is
 * inclusive. The detection and resolution days themselves: the day of detection is left out of
 * before (the problem was already there), the day of resolution is the first day after.
 */
export function channelWindows(detectedAt: Date, resolvedAt: Date, outcomeWindowDays: number): ChannelWindows {
  const days = Math.max(1, Math.ceil(outcomeWindowDays - 1e-9));
  const det = startOfDay(detectedAt);
  const res = startOfDay(resolvedAt);
  return {
    before: { from: day(det - days * DAY), to: day(det - DAY) },
    after: { from: day(res), to: day(res + (days - 1) * DAY) },
    days,
  };
}

/** One channel's sums in one window; a sum is null where no row had the figure. */
export interface ChannelWindowSums {
  channel: string;
  window: 'before' | 'after';
  rows: number;
  aiSessions: number | null;
  conversions: number | null;
  revenue: number | null;
}

export interface ChannelFigure {
  before: number | null;
  after: number | null;
  change: number | null;
}

export interface ChannelOutcome {
  /** The channel kind the figures come from (null: the brand has no channel rows in either window). */
  source: string | null;
  rows: { before: number; after: number };
  aiSessions: ChannelFigure;
  conversions: ChannelFigure;
  revenue: ChannelFigure;
  /** Every channel's sums, for the evidence. */
  byChannel: ChannelWindowSums[];
}

/**
 * Which channel's figures count when a brand has several: its channels overlap (GA4's AI sessions
 * and the built-in `ai_referrals` count the same visits), so summing them would count twice. The
 * first kind in this order with rows in either window is the source for both windows.
 */
export const CHANNEL_PRECEDENCE = ['ga4', 'import', 'ai_referrals', 'search_console'] as const;

const rank = (channel: string) => {
  const i = (CHANNEL_PRECEDENCE as readonly string[]).indexOf(channel);
  return i < 0 ? CHANNEL_PRECEDENCE.length : i;
};

/** AI referral sessions, conversions and revenue before and after, with the change; null where the window has no rows or no row has the figure (never 0 invented). */
export function channelOutcome(sums: readonly ChannelWindowSums[]): ChannelOutcome {
  const withRows = sums.filter((s) => s.rows > 0);
  const source = withRows.map((s) => s.channel).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0] ?? null;
  const of = (w: 'before' | 'after') => withRows.find((s) => s.channel === source && s.window === w) ?? null;
  const before = of('before');
  const after = of('after');
  const figure = (key: 'aiSessions' | 'conversions' | 'revenue'): ChannelFigure => {
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    return { before: b, after: a, change: a === null || b === null ? null : a - b };
  };
  return {
    source,
    rows: { before: before?.rows ?? 0, after: after?.rows ?? 0 },
    aiSessions: figure('aiSessions'),
    conversions: figure('conversions'),
    revenue: figure('revenue'),
    byChannel: [...sums],
  };
}
