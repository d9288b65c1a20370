import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { TenancyRepository } from '@libs/tenancy';
import { crawlBlock, type CrawlBlockDetection } from '../domain';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorThresholdsRepository } from '../detector-thresholds.repository';
import { BotDailyReads } from '../read-model/bot-daily.reads';
import { openDetections, openFingerprints } from '../shared/open-detections';

/**
 * The bot detectors' pass (daily, by CrawlBlockSweep): every brand with AI agent visits in the last
 * DETECTOR_BOT_DAYS days is judged by `crawl_block`; its reports are all computed before any is
 * opened, and opened through the detect command (an open fingerprint is not opened twice).
 */
@Injectable()
export class CrawlBlockPass {
  private readonly logger = new Logger('Detectors');

  constructor(
    private readonly reads: BotDailyReads,
    private readonly thresholds: DetectorThresholdsRepository,
    private readonly commands: CommandBus,
    private readonly tenancy: TenancyRepository,
    private readonly dataSource: DataSource,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  async run(correlationId: string): Promise<{ opened: number[]; alreadyOpen: number[] }> {
    const opened: number[] = [];
    const alreadyOpen: number[] = [];
    for (const b of await this.reads.recent(this.config.botDays)) {
      const brand = await this.tenancy.findBrand({ organizationId: b.organizationId, clientId: null }, b.brandId);
      if (!brand) continue;
      const { thresholds } = await this.thresholds.of(b.organizationId);
      const detections: CrawlBlockDetection[] = crawlBlock({ brandId: b.brandId, brandName: brand.name, rows: b.rows, openFingerprints: await openFingerprints(this.dataSource, b.organizationId, b.brandId, ['crawl_block']), thresholds });
      const r = await openDetections(this.commands, detections, { organizationId: b.organizationId, brandId: b.brandId }, correlationId);
      opened.push(...r.opened);
      alreadyOpen.push(...r.alreadyOpen);
    }
    if (opened.length) this.logger.log(`crawl_block: opened ${opened.length} opportunities`);
    return { opened, alreadyOpen };
  }
}
