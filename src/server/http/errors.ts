import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { type ApiErrorBody, ERROR_STATUS, type ErrorCode } from '../../shared/errors';

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
          message: (v.params.issue as { message?: string } | undefined)?.message ?? v.message ?? 'Invalid value',
        })),
      );
      const first = Object.values(fields)[0] ?? 'Invalid request';
      return reply.status(400).send(errorBody('validation', first, fields));
    }
    if (err instanceof ZodError) {
      const fields = fieldsFromZod(err.issues);
      return reply.status(400).send(errorBody('validation', err.issues[0]?.message ?? 'Invalid request', fields));
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
      const code: ErrorCode = status === 404 ? 'not_found' : 'bad_request';
      // Fastify's own messages name internals (FST_ codes, parsers): members get a plain sentence.
      return reply.status(status).send(errorBody(code, status === 404 ? 'Not found.' : 'The request could not be understood.'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('internal', 'Something went wrong on our side. Please try again.'));
  });
}
