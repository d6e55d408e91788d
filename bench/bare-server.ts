/** The baseline: a bare node:http server replying with the exact bytes it is given. */
import http from 'node:http';

/** `br`: the same body brotli-compressed (base64), sent to clients that accept it, as ours does. */
const routes = JSON.parse(process.env.BARE_ROUTES ?? '{}') as Record<string, { type: string; body: string; br?: string }>;
const compressed = new Map(Object.entries(routes).flatMap(([url, r]) => (r.br ? [[url, Buffer.from(r.br, 'base64')]] : [])));
const server = http.createServer((req, res) => {
  const route = routes[req.url ?? ''];
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const br = compressed.get(req.url ?? '');
  if (br && req.headers['accept-encoding']?.includes('br')) {
    res.writeHead(200, { 'content-type': route.type, 'content-encoding': 'br', vary: 'accept-encoding', 'content-length': br.length });
    res.end(br);
    return;
  }
  res.writeHead(200, { 'content-type': route.type, 'content-length': Buffer.byteLength(route.body) });
  res.end(route.body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
