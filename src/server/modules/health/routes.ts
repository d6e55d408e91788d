import type { FastifyInstance } from 'fastify';

export function registerHealthRoutes(app: FastifyInstance) {
  app.get('/api/health', async (_req, reply) => {
    const { database, config } = app.deps;
    try {
      await database.ping();
    } catch (err) {
      app.log.error({ err }, 'health: database unreachable');
      return reply
        .status(503)
        .header('cache-control', 'no-store')
        .send({ status: 'degraded', db: 'down', mail: mailMode(config.smtpUrl) });
    }
    return reply.header('cache-control', 'no-store').send({ status: 'ok', db: 'ok', mail: mailMode(config.smtpUrl) });
  });
}

const mailMode = (smtpUrl?: string) => (smtpUrl ? 'smtp' : 'dev-mailbox');
