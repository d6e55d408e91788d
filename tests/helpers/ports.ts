import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 now, chosen by the kernel rather than guessed from a band: two test
 * streams guessing in the same band (CI runs the embedded and the PostgreSQL suites side by side)
 * can pick one port, while the kernel never hands out a port that is bound.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('No port from the kernel'))));
    });
  });
}
