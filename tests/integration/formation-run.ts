/**
 * One formation run in its own process (tests/integration/formation.test.ts starts two at once):
 * opens DATABASE_URL, waits until GO_AT (epoch ms) so both start together, runs the job at NOW
 * and prints the result as one JSON line.
 */
import { openDatabase } from '../../src/server/db/client';
import { runFormation } from '../../src/server/modules/formation/job';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
const goAt = Number(process.env.GO_AT);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, goAt - Date.now())));
const run = await runFormation(database.db, new Date(process.env.NOW ?? ''));
console.log(`RESULT ${JSON.stringify(run)}`);
await database.close();
