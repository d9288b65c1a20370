/**
 * Gathers single requests made at about the same moment into one call (one SQL statement for
 * many deliveries): a batch is flushed when it reaches `maxSize` or `maxWaitMs` after its first
 * item. Each caller gets its own item's result, or the batch's error.
 */
export class Batcher<I, O> {
  private items: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxSize = 500,
    private readonly maxWaitMs = 5,
  ) {}

  push(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.items.push({ item, resolve, reject });
      if (this.items.length >= this.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.items;
    this.items = [];
    if (!batch.length) return;
    this.run(batch.map((b) => b.item)).then(
      (out) => batch.forEach((b, i) => b.resolve(out[i])),
      (error: unknown) => batch.forEach((b) => b.reject(error)),
    );
  }
}
