/** `npm start`: build the client if it is missing or stale, then serve everything from one process. */
import { ensureClientBuild } from './build-client';

await ensureClientBuild();
await import('./serve');
