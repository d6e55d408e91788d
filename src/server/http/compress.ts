import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

/**
 * JSON answers at least this long are compressed (decision 015). Below it a response fits in one
 * TCP packet either way, so compressing costs CPU and saves no round trip.
 */
export const COMPRESS_MIN_BYTES = 1024;
/** Larger bodies are compressed in libuv's thread pool instead of on the event loop. */
const SYNC_MAX_BYTES = 64 * 1024;

export type Encoding = 'br' | 'gzip';

/** Per-request compression: fast settings (brotli 4 is smaller than gzip 6 and about as quick). */
const BROTLI_FAST = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
const GZIP_FAST = { level: 6 };
/** Bodies compressed once and reused (cached JSON): the best ratio is worth the one-off cost. */
const BROTLI_BEST = { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, else gzip, each only
 * when accepted with q > 0 (directly or through `*`); undefined means identity.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.length > 512) return undefined;
  // Browsers send a handful of distinct values: each is parsed once (the map is bounded).
  const known = negotiated.get(value);
  if (known !== undefined) return known || undefined;
  const encoding = parseAcceptEncoding(value);
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(value, encoding ?? '');
  return encoding;
}

/** Accept-Encoding values already negotiated ('' for identity), at most NEGOTIATED_MAX of them. */
const negotiated = new Map<string, Encoding | ''>();
const NEGOTIATED_MAX = 64;

function parseAcceptEncoding(value: string): Encoding | undefined {
  let star: number | undefined;
  let br: number | undefined;
  let gz: number | undefined;
  for (const part of value.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';');
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k.trim() === 'q') q = Number(v);
    }
    if (!Number.isFinite(q)) q = 0;
    const token = name.trim();
    if (token === 'br') br = q;
    else if (token === 'gzip' || token === 'x-gzip') gz = q;
    else if (token === '*') star = q;
  }
  if ((br ?? star ?? 0) > 0) return 'br';
  if ((gz ?? star ?? 0) > 0) return 'gzip';
  return undefined;
}

/** Compresses a body once with the best settings, for answers reused many times (cached JSON). */
export function compressBest(body: string | Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI_BEST) : gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
}

function addVary(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(String(vary))) reply.header('vary', `${vary}, accept-encoding`);
}

const isJson = (type: unknown) =>
  typeof type === 'string' && (type.startsWith('application/json') || type.startsWith('application/problem+json'));

/**
 * Sends a JSON body compressed from `variants` when the client accepts it (the body must be
 * at least COMPRESS_MIN_BYTES for that); the compression hook leaves such an answer alone.
 */
export function sendMaybeCompressed(req: FastifyRequest, reply: FastifyReply, body: string, variant: (encoding: Encoding) => Buffer) {
  if (body.length < COMPRESS_MIN_BYTES) return reply.send(body);
  addVary(reply);
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  if (!encoding) return reply.send(body);
  reply.header('content-encoding', encoding);
  return reply.send(variant(encoding));
}

/**
 * Compresses JSON answers of at least COMPRESS_MIN_BYTES for clients that accept brotli or
 * gzip (decision 015). Streams (static files, which come pre-compressed), answers that already
 * have a Content-Encoding, other content types and small bodies pass through untouched.
 * WebSocket traffic never reaches onSend.
 */
export function registerJsonCompression(app: FastifyInstance) {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload === 'string') {
      if (payload.length < COMPRESS_MIN_BYTES) return done(null, payload);
    } else if (!Buffer.isBuffer(payload) || payload.length < COMPRESS_MIN_BYTES) {
      return done(null, payload);
    }
    if (!isJson(reply.getHeader('content-type')) || reply.hasHeader('content-encoding')) return done(null, payload);
    // Sign-in answers stay identity: small anyway, and no secret ever shares a compressed body
    // with what a caller typed (BREACH; the session cookie is SameSite=Lax besides).
    if (req.url.startsWith('/api/auth/')) return done(null, payload);
    addVary(reply);
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    if (payload.length <= SYNC_MAX_BYTES) {
      return done(null, encoding === 'br' ? brotliCompressSync(payload, BROTLI_FAST) : gzipSync(payload, GZIP_FAST));
    }
    const finish = (err: Error | null, out: Buffer) => {
      if (!err) return done(null, out);
      reply.removeHeader('content-encoding');
      done(err);
    };
    if (encoding === 'br') brotliCompress(payload, BROTLI_FAST, finish);
    else gzip(payload, GZIP_FAST, finish);
  });
}
