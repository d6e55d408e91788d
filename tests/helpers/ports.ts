import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The first port the kernel hands to outgoing connections (Linux's ip_local_port_range), or
 * Linux's default where that cannot be read.
 */
export function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 12_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A loopback port that is free now, for a server a test starts. It is drawn from the band just
 * below the ephemeral range: a port the kernel picked for us (listen on 0) lies inside that
 * range, where any outgoing connection of the run (the browser's, a database client's) may take
 * it as its local port between our probe and the server's bind, and CI saw exactly that as
 * EADDRINUSE. Below the range nothing lands by chance; two test streams drawing the same port of
 * ten thousand at the same moment is what remains, and `startE2E` retries that.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = high - 10_000;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`No free port between ${low} and ${high}`);
}

export const isAddressInUse = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
