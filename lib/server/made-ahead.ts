// Making a long list's items (CPU work in this thread) while the caller waits on I/O with the ones
// made before: the seed draws and derives the next chunk of shoots while PostgreSQL reads the COPY
// of the current one, where making them all first or only as each is written leaves one of the
// two idle. The making runs in slices of a few milliseconds between the caller's awaits, so the
// caller's I/O callbacks (a socket draining) wait at most one slice.

// Long enough that the yields cost nothing next to the work, short enough not to starve the I/O.
const SLICE_MS = 4;

/**
 * The items of `items`, each made by `make`, in chunks of `size` (the last one shorter), in
 * order. Once a chunk is handed over, the next one is being made: in slices whenever the event
 * loop is free, i.e. while the caller awaits. An error of `make` or of `items` is thrown by the
 * iteration that would have handed over its chunk.
 */
export async function* madeAhead<T, R>(items: Iterable<T>, size: number, make: (item: T) => R): AsyncGenerator<R[]> {
  const source = items[Symbol.iterator]();
  let stopped = false;
  const makeChunk = async (): Promise<R[]> => {
    const chunk: R[] = [];
    let sliceStart = performance.now();
    while (chunk.length < size && !stopped) {
      const next = source.next();
      if (next.done) break;
      chunk.push(make(next.value));
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    return chunk;
  };
  const started = () => {
    const making = makeChunk();
    // Handled where it is awaited; until then a failure must not count as unhandled.
    making.catch(() => {});
    return making;
  };
  let next = started();
  try {
    for (;;) {
      const chunk = await next;
      if (chunk.length === 0) return;
      next = started();
      yield chunk;
    }
  } finally {
    // The caller stopped early (or failed): the chunk being made is left unfinished.
    stopped = true;
    source.return?.();
  }
}
