import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNED_URL_TTL_S } from '../../../shared/constants';

/**
 * Object storage (DESIGN §1): a local directory (embedded default, local.ts) or an
 * S3-compatible bucket (s3.ts, decision 019). Keys are never overwritten with another picture
 * (decision 007); reads go through the app's signed file route, never straight to the store.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** null when there is no such object. */
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  remove(key: string): Promise<void>;
  /** Removes every object under a folder, e.g. a member's `{userId}/`. */
  removeFolder(prefix: string): Promise<void>;
  /** Every key under a folder (`''` for every key). */
  list(prefix: string): Promise<string[]>;
  /** Resolves when the store answers (the local folder or the bucket exists); throws otherwise. */
  ping(): Promise<void>;
  /** Lets go of connections (the S3 client's sockets); nothing for a folder. */
  close(): void;
}

/** Keys are `{userId}/…`: letters, digits, dot, dash, underscore and slashes, no `..`. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/.test(key) && !key.split('/').some((p) => p === '.' || p === '..');
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;

/** Signed URLs remembered per photo for the current expiry bucket; past this many, all are forgotten. */
const MAX_MEMO_URLS = 20_000;

export function createUrlSigner(secret: string) {
  const sign = (key: string, exp: number) => createHmac('sha256', secret).update(`${key}\n${exp}`).digest('base64url');
  /**
   * A URL is a pure function of (key, expiry bucket): the HMAC is computed once per photo per
   * quarter hour instead of once per face on every page (decision 016). Entries of an older
   * bucket are replaced on their next use; the map is bounded.
   */
  const memo = new Map<string, { exp: number; url: string }>();
  return {
    /** A URL valid for SIGNED_URL_TTL_S seconds (spec §9), served to signed-in members only. */
    url(key: string, now = Date.now()): string {
      // Rounded to the quarter hour so the same photo keeps one URL and stays cached.
      const exp = Math.ceil((now / 1000 + SIGNED_URL_TTL_S) / 900) * 900;
      const known = memo.get(key);
      if (known?.exp === exp) return known.url;
      const url = `/api/files/${key}?exp=${exp}&sig=${sign(key, exp)}`;
      if (memo.size >= MAX_MEMO_URLS) memo.clear();
      memo.set(key, { exp, url });
      return url;
    },
    verify(key: string, exp: number, sig: string, now = Date.now()): boolean {
      if (!Number.isFinite(exp) || exp * 1000 < now) return false;
      const expected = Buffer.from(sign(key, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
