import { randomBytes } from 'node:crypto';
import { type Database, openDatabase } from '../../src/server/db/client';
import { seedReferenceData } from '../../src/server/db/seed/reference';
import { databaseTemplate, templateKey } from './db-template';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default (from the migrated
 * template, tests/helpers/db-template.ts), or a new
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped on close).
 */
const TEMPLATE_LOCK = 7_020_115;

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * The migrated template database with the reference data, made once per migrations and
 * reference data (its name carries their key) by whichever test file needs it first, under the
 * caller's advisory lock. Made under another name and renamed when complete, so a run that died
 * half-way never leaves a template others would copy.
 */
async function postgresTemplate(admin: import('pg').Client, serverUrl: string): Promise<string> {
  const name = `fancy_template_${templateKey()}`;
  const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (rows.length) return name;
  const making = `${name}_making`;
  await admin.query(`drop database if exists ${making} with (force)`);
  await admin.query(`create database ${making}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl, making) });
  try {
    await seedReferenceData(database.db);
  } finally {
    await database.close();
  }
  // A template must have no connections when it is renamed or copied.
  await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [making]);
  await admin.query(`alter database ${making} rename to ${name}`);
  return name;
}

export async function freshDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return openDatabase({ dataDir: 'memory://', initialData: await databaseTemplate() });
  }
  const { default: pg } = await import('pg');
  const name = `fancy_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // Copied from a migrated template (PostgreSQL's own CREATE DATABASE … TEMPLATE): seconds of DDL
  // once per run instead of once per test file.
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    await admin.query(`create database ${name} template ${await postgresTemplate(admin, serverUrl)}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl, name) });
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(serverUrl, name);
    },
  };
}

/**
 * Drops a test database on the PostgreSQL server at `serverUrl`. Closed connections take a moment
 * to leave the server, and dropping `with (force)` under them sends "terminating connection" to
 * clients that are just going away — an unhandled error in whichever process owned them, which
 * fails the run (seen under CI load). So it waits, up to 5 s, for the database's connections to
 * leave first; the ones still there after that are taken down by the force.
 */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const dropper = new pg.Client({ connectionString: serverUrl });
  await dropper.connect();
  try {
    for (let i = 0; i < 50; i++) {
      const { rows } = await dropper.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (!rows[0].n) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await dropper.query(`drop database if exists ${name} with (force)`);
  } finally {
    await dropper.end();
  }
}
