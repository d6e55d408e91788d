/** `npm start`: build the client if stale, then serve everything from one process. */
import { ensureClientBuild } from './build-client';
import { configOrExit, startServer } from './main';

const config = configOrExit();
await ensureClientBuild();
const running = await startServer(config);
const lines = [`\n  Fancy is running on ${running.url}`];
if (running.demo) lines.push(`  Demo sign-ins (password "${running.demo.password}"): ${running.demo.accounts.join(', ')}`);
if (config.devMailbox) lines.push(`  Dev mailbox: ${running.url}/dev/mailbox`);
console.log(`${lines.join('\n')}\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
