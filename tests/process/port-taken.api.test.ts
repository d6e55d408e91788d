/**
 * A port that is taken. CI once failed a journey with EADDRINUSE: the test drew its port from
 * the kernel's ephemeral range, where an outgoing connection of the run took it before the server
 * bound it. Test ports now come from below that range, and a server that cannot bind gives back
 * what it opened (DATA_DIR's lock, the database), so a second start on the same DATA_DIR works.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { type Running, startServer } from '../../src/server/main';
import { databaseTemplate } from '../helpers/db-template';
import { ephemeralLow, freePort } from '../helpers/ports';

const dataDir = mkdtempSync(path.join(tmpdir(), 'fancy-port-'));
let running: Running | undefined;
let holder: Server | undefined;

afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => holder?.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const config = (port: number) =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    PUBLIC_URL: `http://localhost:${port}`,
  });

describe('a port that is taken', () => {
  it('test ports lie below the range outgoing connections use, and are free when drawn', async () => {
    const low = ephemeralLow();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeLessThan(low);
      expect(port).toBeGreaterThan(1024);
    }
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => probe.close(resolve));
  });

  it('a server that cannot bind fails with EADDRINUSE and leaves DATA_DIR free for the next start', async () => {
    const port = await freePort();
    holder = createServer();
    await new Promise<void>((resolve) => holder?.listen(port, '127.0.0.1', resolve));
    const initialData = await databaseTemplate();
    await expect(startServer(config(port), { initialData })).rejects.toMatchObject({ code: 'EADDRINUSE' });

    running = await startServer(config(await freePort()), { initialData });
    const res = await fetch(`${running.url}/api/health`);
    expect(res.status).toBe(200);
  });
});
