import path from 'node:path';
import type { Config } from '../../config';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import type { Storage } from './storage';

/** Where local uploads live: the embedded default, and the source of `npm run storage:migrate`. */
export const uploadsDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'uploads');

/** The bucket when S3_* is set (decision 019), else DATA_DIR/uploads. */
export async function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return createLocalStorage(uploadsDir(config));
  // The AWS SDK loads only when a bucket is configured: the embedded mode starts without it.
  return createS3Storage(config.s3);
}
