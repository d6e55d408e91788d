/**
 * A small read-through cache of serialized JSON for reference data read on every page
 * (the catalogue): one database round trip per TTL per instance, and concurrent readers
 * share one load. `invalidate()` after a change on this instance; other instances catch
 * up within the TTL.
 */
export function cachedJson(load: () => Promise<unknown>, ttlMs: number) {
  let value: { body: string; at: number } | undefined;
  let pending: Promise<string> | undefined;
  return {
    /** The body when it is fresh, without waiting: hot routes answer synchronously. */
    fresh(): string | undefined {
      return value && Date.now() - value.at < ttlMs ? value.body : undefined;
    },
    async get(): Promise<string> {
      if (value && Date.now() - value.at < ttlMs) return value.body;
      pending ??= load()
        .then((data) => {
          const body = JSON.stringify(data);
          value = { body, at: Date.now() };
          return body;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
    invalidate() {
      value = undefined;
    },
  };
}
