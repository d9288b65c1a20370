import { Module } from '@nestjs/common';
import { Queues } from './queues.service';

/** Import where a module adds jobs to or processes a queue; one `Queues` per application. */
@Module({
  providers: [Queues],
  exports: [Queues],
})
export class QueueModule {}
