import { Inject, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Closes a DataSource an application context made for itself (a factory provider) when the context closes. */
export class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
