/**
 * `npm run dev`: the API server restarts on server changes (node --watch) and the client is
 * served by Vite with hot reload on http://localhost:5173, proxying /api to the server.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const api = spawn(process.execPath, ['--import', 'tsx', '--watch', '--watch-preserve-output', 'src/server/serve.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: process.env.PORT ?? '3000', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' },
});

const vite = await createServer({ configFile: 'vite.config.ts', server: { port: 5173 } });
await vite.listen();
vite.printUrls();
console.log('  Open the app on the Vite URL above (mail links point there too).\n');

const stop = async () => {
  api.kill('SIGTERM');
  await vite.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
