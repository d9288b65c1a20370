import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { DetectOpportunityCommand } from '@libs/opportunities';
import { TenancyRepository } from '@libs/tenancy';
import { crawlBlock, type CrawlBlockDetection } from '../domain';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorThresholdsRepository } from '../detector-thresholds.repository';
import { BotDailyReads } from '../read-model/bot-daily.reads';
import { SYSTEM_ACTOR } from '../shared/detector-pass';

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
      const open: { fingerprint: string }[] = await this.dataSource.query(`SELECT fingerprint FROM opportunities WHERE organization_id = $1 AND brand_id = $2 AND NOT terminal AND type = 'crawl_block'`, [b.organizationId, b.brandId]);
      const detections: CrawlBlockDetection[] = crawlBlock({ brandId: b.brandId, brandName: brand.name, rows: b.rows, openFingerprints: new Set(open.map((o) => o.fingerprint)), thresholds });
      for (const d of detections) {
        const result = await this.commands.execute(
          new DetectOpportunityCommand(
            { organizationId: b.organizationId, brandId: b.brandId, type: d.type, severity: d.severity, title: d.title, description: d.description, evidence: d.evidence, source: 'detector:crawl_block', fingerprint: d.fingerprint },
            SYSTEM_ACTOR,
            correlationId,
          ),
        );
        (result.created ? opened : alreadyOpen).push(result.state.id);
      }
    }
    if (opened.length) this.logger.log(`crawl_block: opened ${opened.length} opportunities`);
    return { opened, alreadyOpen };
  }
}
