/**
 * A promise made on the first call and shared by every later one (a client whose SDK is imported on first use);
 * a rejected one is forgotten, so the next call tries again instead of failing for the life of the instance.
 */
export function lazyRetry<T>(make: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (pending) return pending;
    const made = make();
    pending = made;
    made.catch(() => {
      if (pending === made) pending = undefined;
    });
    return made;
  };
}
