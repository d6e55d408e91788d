/**
 * The framework's own ceiling: a bare Fastify (no logger, plugins or hooks) replying with the
 * exact answers it is given (headers and body), so the report can tell what Fastify itself costs
 * against node:http, and what our app adds to it.
 */
import Fastify from 'fastify';
import { acceptsBrotli, bareRoutes } from './bare-answers';

const app = Fastify({ logger: false });
for (const [url, route] of bareRoutes()) {
  app.get(url, (req, reply) => {
    const answer = route.br && acceptsBrotli(req.headers['accept-encoding']) ? route.br : route.plain;
    reply.headers(answer.headers).send(answer.body);
  });
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare ready');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
