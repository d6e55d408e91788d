import pino, { type Logger, type LoggerOptions } from 'pino';

const EMAIL = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[a-z]{2,}/gi;
/** Drizzle appends the statement's parameters to its error messages: "Failed query: …\nparams: …". */
const PARAMS_TAIL = /\nparams:[\s\S]*$/;
/** PostgreSQL's details quote the values: "Key (email)=(someone@example.com) already exists." */
const QUOTED_VALUES = /=\((?:[^()]|\([^()]*\))*\)/g;
/** Fields of database and driver errors that carry the statement's values. */
const VALUE_FIELDS = new Set(['params', 'parameters', 'queryParams', 'values', 'detail', 'where', 'internalQuery']);

/** Removes what may be personal data (values, addresses) from a piece of error text. */
export function scrubText(text: string): string {
  return text.replace(PARAMS_TAIL, '\nparams: [redacted]').replace(QUOTED_VALUES, '=(…)').replace(EMAIL, '[email]');
}

/**
 * pino's error serialiser without personal data: SQL parameters, quoted values and e-mail
 * addresses are removed from the message, the stack and every nested cause; the statement
 * text itself stays (its values are parameters).
 */
export function safeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return typeof err === 'string' ? scrubText(err) : err;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(pino.stdSerializers.err(err))) {
    if (VALUE_FIELDS.has(key)) continue;
    if (key === 'cause' || key === 'aggregateErrors') continue;
    out[key] = typeof value === 'string' ? scrubText(value) : value;
  }
  if (err.cause !== undefined && depth < 3) out.cause = safeError(err.cause, depth + 1);
  return out;
}

/** One logger configuration for the process and for Fastify: JSON lines, errors without personal data. */
export function logOptions(level: string): LoggerOptions {
  return { level, serializers: { err: (e: unknown) => safeError(e) } };
}

export function createLogger(level: string, stream?: pino.DestinationStream): Logger {
  return stream ? pino(logOptions(level), stream) : pino(logOptions(level));
}
