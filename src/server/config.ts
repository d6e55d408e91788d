import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Fancy <no-reply@fancy.example>')),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().default('support@fancy.example')),
  ADMIN_EMAILS: optionalString,
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(true|false|[1-9]|[0-9a-f.:/,\s]+)$/i, "must be 'true', 'false', a number of proxies (1–9) or a list of proxy addresses")
      .optional(),
  ),
  SEED_DEMO: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  VERIFICATION_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  VERIFY_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(8).default(1)),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  authSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  supportEmail: string;
  adminEmails: string[];
  logLevel: string;
  /** Behind a load balancer: take the client IP from X-Forwarded-For. */
  /**
   * Fastify's `trustProxy`: false, how many proxies stand in front (each appends the address it
   * saw to X-Forwarded-For), or the proxies' own addresses/CIDRs. Never "trust every hop": the
   * left-most X-Forwarded-For entries are written by the client.
   */
  trustProxy: false | number | string[];
  /** Embedded mode: dev mailbox on, demo data seeded (never in production). */
  seedDemo: boolean;
  devMailbox: boolean;
  /** Encrypts the face templates of verified members at rest (decision 022); derived from the auth secret when unset. */
  verificationKey: string;
  /** Worker threads running the face models (decision 022). */
  verifyWorkers: number;
}

export class ConfigError extends Error {}

/** Parses the environment into one typed object; throws ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production) {
    const missing = (['AUTH_SECRET', 'PUBLIC_URL'] as const).filter((k) => !e[k]);
    if (missing.length) {
      throw new ConfigError(`Invalid configuration:\n${missing.map((k) => `  ${k}: required when NODE_ENV=production`).join('\n')}`);
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const authSecret = e.AUTH_SECRET ?? embeddedSecret(dataDir);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    authSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    adminEmails: (e.ADMIN_EMAILS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    seedDemo: !production && e.SEED_DEMO !== 'false',
    devMailbox: !production && !e.SMTP_URL,
    verificationKey: e.VERIFICATION_KEY ?? `derived:${authSecret}`,
    verifyWorkers: e.VERIFY_WORKERS,
  };
}

/** `true` means one proxy (a load balancer); a digit, that many; anything else, their addresses. */
export function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (!value || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^[1-9]$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Outside production an auth secret is generated once and kept in DATA_DIR. */
function embeddedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
