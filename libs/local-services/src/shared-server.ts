import { rmSync } from 'node:fs';
import { isAlive, readPrivateJson, waitUntil, writePrivateJson } from './process-tools';

/** A server this project starts for itself, as the processes that share it see it. */
export interface ServerControl {
  /** What the owner file is called (in the data folder). */
  readonly ownerFile: string;
  /** The server's process id when it runs and answers (with our credentials), else null. */
  running(): Promise<number | null>;
  /** Starts it; resolves with its process id once it answers. */
  start(): Promise<number>;
  /** How many connections other than the one asking are open to it. */
  otherClients(): Promise<number>;
  /** Stops it and waits until its process is gone. */
  stop(pid: number): Promise<void>;
  /** Synchronous last resort when this process exits without stopping it (a crash, a timeout). */
  kill(pid: number): void;
}

/**
 * The processes of one checkout (`npm start`, CLI commands) share one server of each kind: the
 * first that needs it starts it and owns it (its pid in the owner file); the others use it. When a
 * process is done, the server is stopped if this process owns it, or its owner is gone (an orphan
 * of a process that was killed), and nobody else is connected; an owner that leaves others
 * connected hands it on (the owner file is removed), so the last one out stops it.
 */
export class SharedServer {
  private pid: number | null = null;
  private readonly onExit = () => {
    if (this.pid !== null && this.owner() === process.pid) this.control.kill(this.pid);
  };

  constructor(private readonly control: ServerControl) {}

  /**
   * Uses the running server, or starts one: 'started', 'shared' (another live process owns it) or
   * 'adopted' (running, but its owner is gone: this process owns it now).
   */
  async acquire(): Promise<'started' | 'shared' | 'adopted'> {
    const running = await this.control.running();
    let how: 'started' | 'shared' | 'adopted' = 'shared';
    if (running !== null) {
      this.pid = running;
      const owner = this.owner();
      if (owner === null || !isAlive(owner)) {
        this.claim();
        how = 'adopted';
      }
    } else {
      this.pid = await this.control.start();
      this.claim();
      how = 'started';
    }
    process.on('exit', this.onExit);
    return how;
  }

  async release(): Promise<void> {
    if (this.pid === null) return;
    process.off('exit', this.onExit);
    const pid = this.pid;
    this.pid = null;
    const owner = this.owner();
    const mine = owner === process.pid;
    if (!mine && owner !== null && isAlive(owner)) return;
    // Connections this process just closed may take a moment to end on the server's side.
    const others = async () => this.control.otherClients().catch(() => 0);
    await waitUntil(async () => (await others()) === 0, 2000, 'other clients to leave').catch(() => undefined);
    if ((await others()) > 0) {
      if (mine) rmSync(this.control.ownerFile, { force: true });
      return;
    }
    await this.control.stop(pid);
    if (this.owner() === owner) rmSync(this.control.ownerFile, { force: true });
  }

  private owner(): number | null {
    return readPrivateJson<{ pid: number }>(this.control.ownerFile)?.pid ?? null;
  }

  private claim(): void {
    writePrivateJson(this.control.ownerFile, { pid: process.pid });
  }
}
