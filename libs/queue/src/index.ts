export * from './queue.config';
export * from './queue-definition';
export * from './queues.service';
export * from './queue.module';
export * from './periodic-task';
