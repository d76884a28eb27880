/**
 * `work`'s answer, or `late()`'s error once `ms` have passed. The work is not stopped (a query cannot be taken
 * back from a database that does not answer); what it yields afterwards goes to `discard`, so that a response
 * body it made is cancelled (closing its cursor) and a late failure is not an unhandled rejection.
 */
export async function withinDeadline<T>(
  work: Promise<T>,
  ms: number,
  late: () => Error,
  discard: (value: T) => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = true;
      reject(late());
    }, ms);
  });
  work.then(
    (value) => expired && discard(value),
    () => {}, // reported to the caller while in time; after that, nobody is waiting for it
  );
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
