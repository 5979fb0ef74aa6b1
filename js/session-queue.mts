// One process's calls on one session, in the order they were made (internal module): every store
// runs its load, save, append and delete through a queue per session id, so that an append made
// while a save is under way lands after it, never inside it.

/** Runs `work` after every earlier call for the same `id` settled (fulfilled or not). */
export type SessionQueue = <T>(id: string, work: () => Promise<T>) => Promise<T>;

/**
 * A queue per session id; an id's entry is dropped when its last call settles.
 *
 * @example
 * ```ts
 * const queue = sessionQueue();
 * await queue("s1", () => writeSnapshot());
 * ```
 */
export function sessionQueue(): SessionQueue {
  const tails = new Map<string, Promise<unknown>>();
  return <T,>(id: string, work: () => Promise<T>): Promise<T> => {
    const before = tails.get(id) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(id, tail);
    void tail.then(() => {
      if (tails.get(id) === tail) tails.delete(id);
    });
    return run;
  };
}
