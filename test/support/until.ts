/** Waits until `check` holds, polling every 50 ms; throws after `ms` naming `what`. */
export async function until(check: () => Promise<boolean> | boolean, ms = 30_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
