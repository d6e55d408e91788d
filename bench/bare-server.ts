/** The baseline: a bare node:http server replying with the exact bytes it is given. */
import http from 'node:http';

const routes = JSON.parse(process.env.BARE_ROUTES ?? '{}') as Record<string, { type: string; body: string }>;
const server = http.createServer((req, res) => {
  const route = routes[req.url ?? ''];
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': route.type, 'content-length': Buffer.byteLength(route.body) });
  res.end(route.body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
