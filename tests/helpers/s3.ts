import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface TestBucket {
  /** The S3_* variables that point Fancy at this bucket. */
  env: Record<string, string>;
  /** A separate client, to look into the bucket the way an operator would. */
  client: S3Client;
  bucket: string;
  /** Every key in the bucket (or under a prefix). */
  keys(prefix?: string): Promise<string[]>;
  /** An object's bytes, or null when there is none. */
  object(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** A real S3 API (s3rver) on a free loopback port, with one empty bucket; its files live in a temporary folder. */
export async function startTestBucket(bucket = 'fancy-photos'): Promise<TestBucket> {
  const directory = mkdtempSync(path.join(tmpdir(), 'fancy-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const env = {
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'eu-west-2',
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    env,
    client,
    bucket,
    async keys(prefix) {
      const out: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
        token = page.NextContinuationToken;
      } while (token);
      return out.sort();
    },
    async object(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await res.Body!.transformToByteArray());
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return null;
        throw err;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
