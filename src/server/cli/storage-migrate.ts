/** `npm run storage:migrate`: copies DATA_DIR/uploads into the S3 bucket named by S3_* (decision 019). */
import { createLocalStorage } from '../infra/storage/local';
import { uploadsDir } from '../infra/storage/create';
import { migrateUploads } from '../infra/storage/migrate';
import { createS3Storage } from '../infra/storage/s3';
import { ConfigError, loadConfig } from '../config';

const config = (() => {
  try {
    // The auth secret is not used here: a placeholder keeps loadConfig from writing one into DATA_DIR.
    return loadConfig({ AUTH_SECRET: 'not-used-by-this-command-not-used-by-this-command', ...process.env });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
})();
if (!config.s3) {
  console.error(
    'storage:migrate copies local uploads into a bucket: set S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY first.',
  );
  process.exit(2);
}
const source = uploadsDir(config);
const bucket = await createS3Storage(config.s3);
try {
  await bucket.ping().catch((err) => {
    throw new Error(`The bucket ${config.s3?.bucket} does not answer: ${(err as Error).name} ${(err as Error).message}`);
  });
  console.log(`Copying ${source} into the bucket ${bucket.bucket}…`);
  const result = await migrateUploads(createLocalStorage(source), bucket);
  console.log(`Copied ${result.copied} file(s); ${result.present} already in the bucket.`);
  if (result.ignored.length) console.log(`Not photos, left out: ${result.ignored.join(', ')}`);
  console.log('Local files are kept: remove them once Fancy runs with the bucket.');
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  bucket.close();
}
