import { isSafeKey, type Storage } from './storage';
import type { S3Storage } from './s3';

export interface MigrateResult {
  /** Objects written to the bucket by this run. */
  copied: number;
  /** Already in the bucket with the same size: left alone. */
  present: number;
  /** Files in the folder that are not photos (unsafe names, interrupted writes): not copied. */
  ignored: string[];
}

/** Copies this many objects at a time. */
const PARALLEL = 8;

/**
 * `npm run storage:migrate` (decision 019): copies every local upload into the bucket under the
 * same key, unless the bucket already holds that key with the same size — so a second run
 * copies nothing, and a run cut short resumes where it stopped. Keys are never reused for
 * another picture (decision 007), so an equal key and size is the same photo. Local files stay
 * where they are; nothing is deleted.
 */
export async function migrateUploads(from: Storage, to: S3Storage, onCopy?: (key: string) => void): Promise<MigrateResult> {
  const [local, remote] = await Promise.all([from.list(''), to.inventory('')]);
  const ignored = local.filter((key) => !isSafeKey(key));
  const queue = local.filter((key) => isSafeKey(key));
  let copied = 0;
  let present = 0;
  const worker = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      const file = await from.get(key);
      if (!file) continue; // removed since the listing
      if (remote.get(key) === file.data.length) {
        present++;
        continue;
      }
      await to.put(key, file.data, file.contentType);
      copied++;
      onCopy?.(key);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { copied, present, ignored };
}
