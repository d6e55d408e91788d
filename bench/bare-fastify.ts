/**
 * The framework's own ceiling: a bare Fastify (no logger, plugins or hooks) replying with the
 * exact bytes it is given, so the report can tell what Fastify itself costs against node:http.
 */
import Fastify from 'fastify';

const routes = JSON.parse(process.env.BARE_ROUTES ?? '{}') as Record<string, { type: string; body: string; br?: string }>;
const app = Fastify({ logger: false });
for (const [url, route] of Object.entries(routes)) {
  const br = route.br ? Buffer.from(route.br, 'base64') : undefined;
  app.get(url, (req, reply) => {
    if (br && req.headers['accept-encoding']?.includes('br')) {
      reply.type(route.type).header('content-encoding', 'br').header('vary', 'accept-encoding').send(br);
      return;
    }
    reply.type(route.type).send(route.body);
  });
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare ready');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
