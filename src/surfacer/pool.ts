// Entries start oldest first; a few run at once so one slow notifier call does not hold up a burst.

/** Runs `work` over `items` in order of start, at most `concurrency` at a time; stops starting new ones once `stop()` says so. */
export async function runInOrder<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>, stop: () => boolean = () => false): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      results.push(await work(item));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
