/** Serves the app from this process until SIGINT/SIGTERM, then shuts down gracefully. */
import { configOrExit } from './config';
import { openStore } from './open-store';

const config = configOrExit();
// The database opens (the embedded one on its own thread) while the rest of the server loads:
// a warm restart waits for the slower of the two, not for both (decision 017).
const store = openStore(config);
store.catch(() => {}); // startServer awaits it and reports a failure
const { startServer } = await import('./main');
const running = await startServer(config, { store });
const lines = [`\n  Fancy is running on ${running.url}`];
if (running.demo) lines.push(`  Demo sign-ins (password "${running.demo.password}"): ${running.demo.accounts.join(', ')}`);
if (config.devMailbox) lines.push(`  Dev mailbox: ${running.url}/dev/mailbox`);
console.log(`${lines.join('\n')}\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Drain (decision 020): readiness says draining, sockets are told to reconnect elsewhere,
    // in-flight requests finish, then mail and the database close; a stuck close still exits.
    const force = setTimeout(() => process.exit(1), config.drainDelayMs + 10_000);
    force.unref();
    running.drain().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
