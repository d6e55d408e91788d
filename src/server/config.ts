import { createECDH, randomBytes } from 'node:crypto';
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
  // Photos in S3-compatible object storage (decision 019); local disk when none is set.
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  S3_REGION: optionalString,
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3–63 lower-case letters, digits, dots, dashes)')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  // Web Push (decision 021): the VAPID pair, URL-safe base64 as `npx web-push generate-vapid-keys` prints it.
  VAPID_PUBLIC_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a URL-safe base64 P-256 public key')
      .optional(),
  ),
  VAPID_PRIVATE_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a URL-safe base64 P-256 private key')
      .optional(),
  ),
  /** More push services than the built-in ones (modules/push/endpoint.ts): host names, `*.domain` for any name below it. */
  PUSH_SERVICE_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform(parsePushServiceHosts)
      .pipe(
        z
          .array(
            z
              .string()
              .regex(
                /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]([a-z0-9-]*[a-z0-9])?$/,
                'must be a comma-separated list of host names (e.g. push.example.com or *.push.example.com), no IP addresses or ports',
              ),
          )
          .max(50),
      )
      .optional(),
  ),
  SECURITY_CONTACT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// URI')
      .optional(),
  ),
  /** Production without SMTP_URL only when the operator says so: mail stays in the outbox (decision 020). */
  MAIL_OUTBOX_ONLY: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  DRAIN_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(120_000).default(0)),
  VERIFICATION_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  VERIFY_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(8).default(1)),
  /** `normal` for the test suites, whose machine is busy with nice-0 work the models would wait behind for minutes. */
  VERIFY_WORKER_PRIORITY: z.preprocess(emptyToUndefined, z.enum(['lowest', 'normal']).default('lowest')),
  /** The mixer host's periodic job (issue 29): on by default, off under NODE_ENV=test unless HOST_JOB=on. */
  HOST_JOB: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).optional()),
  /** `light` only under NODE_ENV=test, where it is the default (src/server/auth/password-hashing.ts). */
  PASSWORD_HASHING: z.preprocess(emptyToUndefined, z.enum(['standard', 'light']).optional()),
});

/** Needed together for the S3 driver; S3_ENDPOINT (AWS itself when unset) and S3_FORCE_PATH_STYLE are optional. */
const S3_REQUIRED = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_ALL = [...S3_REQUIRED, 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'] as const;

export interface S3Config {
  /** e.g. https://s3.eu-west-2.amazonaws.com, a MinIO or R2 URL; the SDK's AWS default when unset. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path instead of the host name (MinIO, most stand-ins). */
  forcePathStyle: boolean;
}

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
  /** Set when the S3_* variables are: photos then live in that bucket instead of DATA_DIR/uploads. */
  s3?: S3Config;
  /** Web Push keys; undefined (push off) in production when not configured. */
  vapid?: { publicKey: string; privateKey: string };
  /** Push services accepted as endpoints besides the built-in ones (PUSH_SERVICE_HOSTS), normalised. */
  pushServiceHosts: string[];
  /** security.txt `Contact:` (RFC 9116). */
  securityContact: string;
  /**
   * How mail leaves: through SMTP_URL; the dev mailbox page (outside production); or, in
   * production only when MAIL_OUTBOX_ONLY=true, nowhere (kept in the outbox, shown as a warning).
   */
  mailMode: 'smtp' | 'dev-mailbox' | 'outbox-only';
  /** GET /metrics answers only with this bearer token; off without it. */
  metricsToken?: string;
  /** On SIGTERM: how long readiness reports "draining" before the instance stops accepting. */
  drainDelayMs: number;
  /** Encrypts the face templates of verified members at rest (decision 022); derived from the auth secret when unset. */
  verificationKey: string;
  /** Processes running the face models, each at the lowest CPU priority (decision 022). */
  verifyWorkers: number;
  /** `lowest` (every thread nice 19, decision 022) unless VERIFY_WORKER_PRIORITY says `normal`. */
  verifyWorkerPriority?: 'lowest' | 'normal';
  /** Whether this instance runs the host's periodic job (tests run it at chosen moments instead). */
  hostJob?: boolean;
  /** better-auth's scrypt everywhere but in tests (src/server/auth/password-hashing.ts). */
  passwordHashing?: 'standard' | 'light';
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
    const lines = missing.map((k) => `  ${k}: required when NODE_ENV=production`);
    // Without a transport every verification and reset mail would wait in the outbox unread.
    if (!e.SMTP_URL && e.MAIL_OUTBOX_ONLY !== 'true') {
      lines.push(
        '  SMTP_URL: required when NODE_ENV=production (sign-up and password-reset mail must be delivered); set MAIL_OUTBOX_ONLY=true to run without sending mail on purpose',
      );
    }
    if (lines.length) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (e.PASSWORD_HASHING === 'light' && e.NODE_ENV !== 'test') {
    throw new ConfigError('Invalid configuration:\n  PASSWORD_HASHING: light is for the test suites only (NODE_ENV=test)');
  }
  const s3Given = S3_ALL.filter((k) => e[k] !== undefined);
  if (s3Given.length > 0) {
    const missing = S3_REQUIRED.filter((k) => !e[k]);
    if (missing.length) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((k) => `  ${k}: required when any S3_* variable is set (set: ${s3Given.join(', ')})`).join('\n')}`,
      );
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
    s3:
      e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            bucket: e.S3_BUCKET,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          }
        : undefined,
    vapid: vapidKeys(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY, production, dataDir),
    pushServiceHosts: e.PUSH_SERVICE_HOSTS ?? [],
    securityContact: e.SECURITY_CONTACT ?? `mailto:${e.SUPPORT_EMAIL}`,
    mailMode: e.SMTP_URL ? 'smtp' : production ? 'outbox-only' : 'dev-mailbox',
    metricsToken: e.METRICS_TOKEN,
    drainDelayMs: e.DRAIN_DELAY_MS,
    verificationKey: e.VERIFICATION_KEY ?? `derived:${authSecret}`,
    verifyWorkers: e.VERIFY_WORKERS,
    verifyWorkerPriority: e.VERIFY_WORKER_PRIORITY,
    hostJob: e.HOST_JOB ? e.HOST_JOB === 'on' : e.NODE_ENV !== 'test',
    passwordHashing: e.PASSWORD_HASHING ?? (e.NODE_ENV === 'test' ? 'light' : 'standard'),
  };
}

/**
 * VAPID keys from the environment (both or neither); outside production a pair is generated
 * once and kept in DATA_DIR like the auth secret. Production without them has no push.
 */
function vapidKeys(publicKey: string | undefined, privateKey: string | undefined, production: boolean, dataDir: string): Config['vapid'] {
  if (publicKey && privateKey) return { publicKey, privateKey };
  if (publicKey || privateKey) throw new ConfigError('Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
  if (production) return undefined;
  const file = path.join(dataDir, 'vapid-keys.json');
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    if (kept.publicKey && kept.privateKey) return kept;
  } catch {}
  mkdirSync(dataDir, { recursive: true });
  const keys = generateVapidKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** A P-256 key pair in the form Web Push uses (raw public point, raw 32-byte private scalar; URL-safe base64). */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const priv = Buffer.alloc(32);
  const raw = ecdh.getPrivateKey();
  raw.copy(priv, 32 - raw.length);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: priv.toString('base64url') };
}

/** PUSH_SERVICE_HOSTS: comma- or space-separated, compared in lower case without trailing dots. */
function parsePushServiceHosts(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((h) => h.toLowerCase().replace(/\.+$/, ''))
    .filter(Boolean);
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

/** The configuration from the environment; an invalid one is said in one message and exits (code 2). */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
