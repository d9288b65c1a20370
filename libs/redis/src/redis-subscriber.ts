import type { Redis } from 'ioredis';
import { connectRedis, type RedisTarget } from './redis-connection';

/** What a subscriber does with each message of one channel. */
export type MessageHandler = (message: string) => void;

export interface RedisSubscriberOptions {
  /** One handler per channel (channel names are not prefixed: include the deployment's prefix). */
  channels: Readonly<Record<string, MessageHandler>>;
  /**
   * Called whenever the connection is (again) ready. Messages published while it was down are
   * lost (Redis pub/sub keeps nothing), so a cache forgets what a lost message could have evicted.
   */
  onReady?: () => void;
  /** The connection's name in CLIENT LIST. */
  name?: string;
}

/**
 * A dedicated Redis connection in subscriber mode (a subscribed connection can do nothing else):
 * subscribes to its channels, hands each message to its channel's handler, reconnects and
 * resubscribes by itself (ioredis retries forever and re-issues SUBSCRIBE), and is closed by its
 * owner at shutdown. A handler that throws loses its message only.
 */
export class RedisSubscriber {
  private constructor(private readonly connection: Redis) {}

  /** Connects and subscribes; resolves once the subscriptions are in place. */
  static async open(target: string | RedisTarget, options: RedisSubscriberOptions): Promise<RedisSubscriber> {
    // On a cluster, a PUBLISH reaches every node, so one subscribed connection (to any node) hears every channel.
    const connection = connectRedis(typeof target === 'string' ? { redisUrl: target } : target, { maxRetriesPerRequest: null, lazyConnect: true, autoResubscribe: true, connectionName: options.name });
    connection.on('error', () => undefined);
    connection.on('message', (channel: string, message: string) => {
      try {
        options.channels[channel]?.(message);
      } catch {
        /* one bad message must not stop the others */
      }
    });
    if (options.onReady) connection.on('ready', options.onReady);
    const subscriber = new RedisSubscriber(connection);
    try {
      await connection.connect();
      await connection.subscribe(...Object.keys(options.channels));
    } catch (error) {
      connection.disconnect();
      throw error;
    }
    return subscriber;
  }

  /** Connection state (`ready` while subscribed). */
  get status(): string {
    return this.connection.status;
  }

  close(): void {
    this.connection.disconnect();
  }
}
