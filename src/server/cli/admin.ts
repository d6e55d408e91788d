/** `npm run admin -- promote EMAIL`: gives an existing account the admin role. */
import { promoteAdmins } from '../auth/admins';
import { configOrExit } from '../config';
import { openDatabase } from '../db/client';

const [command, email] = process.argv.slice(2);
if (command !== 'promote' || !email) {
  console.error('Usage: npm run admin -- promote EMAIL');
  process.exit(2);
}
const config = configOrExit();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const changed = await promoteAdmins(database.db, [email]);
  if (!changed) {
    console.error(`No confirmed account with the address ${email}. It must register and confirm its address first.`);
    process.exitCode = 1;
  } else {
    console.log(`${email} is now an admin.`);
  }
} finally {
  await database.close();
}
