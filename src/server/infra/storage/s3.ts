import type { S3Config } from '../../config';
import { isSafeKey, type Storage } from './storage';

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

export interface S3Storage extends Storage {
  readonly kind: 's3';
  readonly bucket: string;
  /** Every object under a prefix with its size in bytes (storage:migrate compares against it). */
  inventory(prefix: string): Promise<Map<string, number>>;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Photos in an S3-compatible bucket through the AWS SDK v3 (decision 019): AWS S3, MinIO,
 * Cloudflare R2, Backblaze B2, s3rver in tests. The bucket stays private; the app's signed
 * file route reads objects and streams them to members who may see them.
 */
export async function createS3Storage(config: S3Config): Promise<S3Storage> {
  // Loaded here, not at the top: the server bundle (decision 017) keeps a dynamic import as one,
  // so the embedded mode never loads the SDK.
  const {
    DeleteObjectCommand,
    DeleteObjectsCommand,
    GetObjectCommand,
    HeadBucketCommand,
    paginateListObjectsV2,
    PutObjectCommand,
    S3Client,
  } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Checksums only where the S3 API requires them (DeleteObjects): S3-compatible stores that
    // predate the SDK's default CRC32 trailers (older MinIO, R2, s3rver) reject those uploads.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A bucket that stops answering fails the request instead of holding it open.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const Bucket = config.bucket;
  const checked = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return key;
  };

  const inventory: S3Storage['inventory'] = async (prefix) => {
    const out = new Map<string, number>();
    for await (const page of paginateListObjectsV2({ client, pageSize: 1000 }, { Bucket, Prefix: prefix || undefined })) {
      for (const o of page.Contents ?? []) if (o.Key) out.set(o.Key, o.Size ?? 0);
    }
    return out;
  };

  return {
    kind: 's3',
    bucket: Bucket,
    async put(key, data, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: checked(key), Body: data, ContentType: contentType }));
    },
    async get(key) {
      if (!isSafeKey(key)) return null;
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!res.Body) return null;
        const data = Buffer.from(await res.Body.transformToByteArray());
        return { data, contentType: res.ContentType ?? 'application/octet-stream' };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async remove(key) {
      // Deleting a missing key succeeds in S3: removal stays idempotent, as on disk.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
    async removeFolder(prefix) {
      const folder = prefix.replace(/\/+$/, '');
      if (!/^[A-Za-z0-9_-]+$/.test(folder)) throw new Error(`unsafe storage folder: ${prefix}`);
      const keys = [...(await inventory(`${folder}/`)).keys()];
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        const res = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        if (res.Errors?.length) {
          const first = res.Errors[0];
          throw new Error(`could not delete ${res.Errors.length} object(s) under ${folder}/: ${first.Key} ${first.Code} ${first.Message}`);
        }
      }
    },
    async list(prefix) {
      return [...(await inventory(prefix)).keys()];
    },
    inventory,
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      client.destroy();
    },
  };
}
