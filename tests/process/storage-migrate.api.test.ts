/**
 * `npm run storage:migrate` (decision 019): local uploads are copied into the bucket under the
 * same keys; a second run copies nothing; without S3_* it refuses with a message.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from '../fixtures/images';
import { startTestBucket, type TestBucket } from '../helpers/s3';
import { createLocalStorage } from '../../src/server/infra/storage/local';

let bucket: TestBucket;
const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-migrate-'));
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(async () => {
  await bucket?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function migrate(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const proc = spawn('npm', ['run', '--silent', 'storage:migrate'], {
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, out })));
}

describe('npm run storage:migrate', () => {
  it('copies every local upload into the bucket once; a second run copies nothing', async () => {
    const local = createLocalStorage(path.join(dataDir, 'uploads'));
    const files: Record<string, Buffer> = {
      'member-a/photos/p1.webp': await png(40, 40, '#aa0000'),
      'member-a/photos/p1.thumb.webp': await png(10, 10, '#aa0000'),
      'member-b/photos/p2.webp': await png(50, 30, '#00aa00'),
      // A picture from before decision 007, still served under its old key.
      'member-c/avatar.webp': await png(30, 30, '#0000aa'),
    };
    for (const [key, data] of Object.entries(files)) await local.put(key, data, 'image/webp');
    // Leftovers that are not photos: an interrupted write and a stray file.
    writeFileSync(path.join(dataDir, 'uploads', 'member-a', 'photos', 'p9.webp.123.tmp'), 'partial');
    writeFileSync(path.join(dataDir, 'uploads', 'notes.txt'), 'operator notes');
    // One object already made it on an earlier, interrupted run.
    await bucket.client.send(
      new PutObjectCommand({
        Bucket: bucket.bucket,
        Key: 'member-b/photos/p2.webp',
        Body: files['member-b/photos/p2.webp'],
        ContentType: 'image/webp',
      }),
    );

    const first = await migrate(bucket.env);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('Copied 3 file(s); 1 already in the bucket.');
    expect(first.out).toContain('notes.txt');
    expect(await bucket.keys()).toEqual(Object.keys(files).sort());
    for (const [key, data] of Object.entries(files)) {
      const res = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key: key }));
      expect(res.ContentType).toBe('image/webp');
      expect(Buffer.from(await res.Body!.transformToByteArray()).equals(data), key).toBe(true);
    }

    const second = await migrate(bucket.env);
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain('Copied 0 file(s); 4 already in the bucket.');
    expect(await bucket.keys()).toEqual(Object.keys(files).sort());
  });

  it('refuses without a bucket, naming the variables', async () => {
    const res = await migrate({});
    expect(res.code).toBe(2);
    expect(res.out).toContain('S3_BUCKET');
  });
});
