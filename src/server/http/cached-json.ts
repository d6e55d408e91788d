import { compressBest, type Encoding } from './compress';

/** A cached JSON body with its compressed forms, each made once when first asked for. */
export interface CachedBody {
  body: string;
  encoded(encoding: Encoding): Buffer;
}

function cachedBody(body: string): CachedBody {
  const variants: Partial<Record<Encoding, Buffer>> = {};
  return { body, encoded: (encoding) => (variants[encoding] ??= compressBest(body, encoding)) };
}

/**
 * A small read-through cache of serialized JSON for reference data read on every page
 * (the catalogue): one database round trip per TTL per instance, and concurrent readers
 * share one load. `invalidate()` after a change on this instance; other instances catch
 * up within the TTL. The body's brotli and gzip forms are made once per load, so compressed
 * answers (decision 015) cost no CPU per request.
 */
export function cachedJson(load: () => Promise<unknown>, ttlMs: number) {
  let value: { body: CachedBody; at: number } | undefined;
  let pending: Promise<CachedBody> | undefined;
  return {
    /** The body when it is fresh, without waiting: hot routes answer synchronously. */
    fresh(): CachedBody | undefined {
      return value && Date.now() - value.at < ttlMs ? value.body : undefined;
    },
    async get(): Promise<CachedBody> {
      if (value && Date.now() - value.at < ttlMs) return value.body;
      pending ??= load()
        .then((data) => {
          const body = cachedBody(JSON.stringify(data));
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
