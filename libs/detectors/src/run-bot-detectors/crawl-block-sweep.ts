import { Injectable, Logger, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { CrawlBlockPass } from './crawl-block-pass';

/**
 * The bot detectors run on the bot data's daily rollups, not after analysis runs: the worker runs
 * them every DETECTOR_BOT_POLL_MS (daily by default), the first time a minute after it starts
 * (idempotent: a second worker doing the same finds the problems open).
 */
@Injectable()
export class CrawlBlockSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Detectors');
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly pass: CrawlBlockPass,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => {
      if (this.running) return;
      this.running = this.pass
        .run(`crawl-block-${Date.now()}`)
        .catch((error: unknown) => this.logger.error(`crawl_block: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    };
    this.timers.push(setTimeout(tick, Math.min(60_000, this.config.botPollMs)), setInterval(tick, this.config.botPollMs));
    for (const t of this.timers) t.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.running;
  }
}
