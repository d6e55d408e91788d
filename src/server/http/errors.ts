import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DEFAULT_MESSAGES } from '../../shared/schemas/zod-defaults';
import { type ApiErrorBody, codeForStatus, ERROR_STATUS, type ErrorCode } from '../../shared/errors';

/** Plain sentences for refusals that come from Fastify or a plugin rather than from our code. */
const PLAIN_MESSAGES: Partial<Record<ErrorCode, string>> = {
  forbidden: 'You cannot open this.',
  not_found: 'Not found.',
  request_timeout: 'The request took too long to arrive.',
  uri_too_long: 'This address is too long.',
  headers_too_large: 'The request headers are too large.',
};

/** Throw this from a route or service: it becomes the error JSON of DESIGN §5. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
  get status() {
    return ERROR_STATUS[this.code];
  }
}

export const errorBody = (code: ErrorCode, message: string, fields?: Record<string, string>): ApiErrorBody => ({
  error: fields ? { code, message, fields } : { code, message },
});

export function fieldsFromZod(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError | ZodError, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.status).send(errorBody(err.code, err.message, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = fieldsFromZod(
        err.validation.map((v) => ({
          path: (v.instancePath || '').split('/').filter(Boolean),
          message: (v.params.issue as { message?: string } | undefined)?.message ?? v.message ?? DEFAULT_MESSAGES.check,
        })),
      );
      const first = Object.values(fields)[0] ?? DEFAULT_MESSAGES.check;
      return reply.status(400).send(errorBody('validation', first, fields));
    }
    if (err instanceof ZodError) {
      const fields = fieldsFromZod(err.issues);
      return reply.status(400).send(errorBody('validation', err.issues[0]?.message ?? DEFAULT_MESSAGES.check, fields));
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send(errorBody('rate_limited', err.message || 'Too many requests. Please try again later.'));
    }
    if (status === 413) {
      // JSON bodies over bodyLimit; uploads (multipart) have their own file-size message.
      const message =
        (err as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'This request is too large. Please shorten what you wrote and try again.'
          : 'File is too large. Please use files under 5MB.';
      return reply.status(413).send(errorBody('payload_too_large', message));
    }
    if (status === 415) {
      return reply.status(415).send(errorBody('unsupported_media_type', 'Please send this request as JSON.'));
    }
    if (status >= 400 && status < 500) {
      // Status and code always agree (a 4xx without a code of its own becomes 400 bad_request).
      const known = codeForStatus(status);
      // Fastify's own messages name internals (FST_ codes, parsers): members get a plain sentence.
      return reply.status(known.status).send(errorBody(known.code, PLAIN_MESSAGES[known.code] ?? 'The request could not be understood.'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('internal', 'Something went wrong on our side. Please try again.'));
  });
}
