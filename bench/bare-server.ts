/** The baseline: a bare node:http server replying with the exact answers it is given (headers and body). */
import http from 'node:http';
import { acceptsBrotli, bareRoutes } from './bare-answers';

const routes = bareRoutes();
const server = http.createServer((req, res) => {
  const route = routes.get(req.url ?? '');
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const answer = route.br && acceptsBrotli(req.headers['accept-encoding']) ? route.br : route.plain;
  res.writeHead(200, { ...answer.headers, 'content-length': answer.body.length });
  res.end(answer.body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
