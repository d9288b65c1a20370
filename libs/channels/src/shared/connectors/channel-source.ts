import type { ChannelData } from '../../domain';
import type { ChannelForSync } from '../../channels.repository';
import type { RetrySettings } from './source-errors';

/** A window of days, both included. */
export interface DayWindow {
  start: string;
  end: string;
}

/** The port every connector implements: the rows of a channel for a window of days. */
export interface ChannelSource {
  fetch(channel: ChannelForSync, credentials: string | null, window: DayWindow, retry: RetrySettings): Promise<ChannelData>;
}
