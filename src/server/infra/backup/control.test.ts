import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { controlSocketPath, DataDirInUseError, openControl, probeControl } from './control';

const root = mkdtempSync(path.join(tmpdir(), 'fancy-control-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('DATA_DIR control socket (one process at a time)', () => {
  it('lets one holder in, names it to the next, and frees the folder on close', async () => {
    const first = await openControl(root, { holder: 'the first holder' });
    expect(await probeControl(root)).toEqual({ holder: 'the first holder', pid: process.pid });
    const second = openControl(root, { holder: 'the second holder' });
    await expect(second).rejects.toThrow(DataDirInUseError);
    await expect(second).rejects.toThrow(`in use by the first holder (pid ${process.pid})`);
    await first.close();
    expect(await probeControl(root)).toBeNull();
    const third = await openControl(root, { holder: 'the third holder' });
    await third.close();
  });

  it('takes over a socket file left by a process that was killed', async () => {
    const dir = mkdtempSync(path.join(root, 'stale-'));
    writeFileSync(controlSocketPath(dir), '');
    const control = await openControl(dir, { holder: 'the new holder' });
    expect((await probeControl(dir))?.holder).toBe('the new holder');
    await control.close();
  });

  it('keeps socket paths short enough for Unix sockets, one per folder', () => {
    const long = path.join(root, 'x'.repeat(120));
    expect(controlSocketPath(root)).toBe(path.join(root, 'control.sock'));
    expect(Buffer.byteLength(controlSocketPath(long))).toBeLessThan(100);
    expect(controlSocketPath(long)).not.toBe(controlSocketPath(`${long}y`));
  });
});
