import { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until `ok` (a loaded machine's timers may run late: conditions, not fixed sleeps). */
const until = async (ok: () => boolean) => {
  for (const end = Date.now() + 5000; !ok(); await sleep(5)) if (Date.now() > end) throw new Error('timed out');
};

describe('PeriodicTask', () => {
  it('runs at once when asked, then every period, never two passes at a time', async () => {
    let active = 0;
    let most = 0;
    let passes = 0;
    const task = new PeriodicTask({
      name: 't',
      everyMs: 10,
      firstAfterMs: 0,
      run: async () => {
        active++;
        most = Math.max(most, active);
        passes++;
        await sleep(35);
        active--;
      },
    });
    task.start();
    expect(passes).toBe(1);
    await until(() => passes >= 3);
    await task.stop();
    expect(most).toBe(1);
  });

  it('waits one period for its first pass by default, or the delay it is given', async () => {
    const seen: string[] = [];
    const a = new PeriodicTask({ name: 'a', everyMs: 60_000, run: async () => void seen.push('a') });
    const b = new PeriodicTask({ name: 'b', everyMs: 60_000, firstAfterMs: 20, run: async () => void seen.push('b') });
    a.start();
    b.start();
    await until(() => seen.length > 0);
    await sleep(20);
    await Promise.all([a.stop(), b.stop()]);
    expect(seen).toEqual(['b']);
  });

  it('logs a failed pass at its level and runs again next period', async () => {
    const logger = new Logger('test');
    const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    let calls = 0;
    const task = new PeriodicTask({
      name: 'sweep',
      everyMs: 15,
      failureLevel: 'error',
      logger,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('database away');
      },
    });
    task.start();
    await until(() => calls >= 2);
    await task.stop();
    expect(errors).toHaveBeenCalledWith('sweep failed: database away');
  });

  it('stop() waits for the pass in hand, and nothing runs after it', async () => {
    let finished = false;
    let calls = 0;
    const task = new PeriodicTask({
      name: 't',
      everyMs: 5,
      firstAfterMs: 0,
      run: async () => {
        calls++;
        await sleep(50);
        finished = true;
      },
    });
    task.start();
    await task.stop();
    expect(finished).toBe(true);
    const after = calls;
    await sleep(30);
    await task.tick();
    expect(calls).toBe(after);
  });
});
