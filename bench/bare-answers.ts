/** The answers the bare servers replay: ours, as fetched (headers without the transfer ones, body in base64). */
export interface Answer {
  headers: Record<string, string>;
  body: string;
}

export interface BareRoute {
  /** To a client that does not accept brotli. */
  plain: Answer;
  /** To one that does (the catalogue, which ours sends compressed). */
  br?: Answer;
}

/** BARE_ROUTES as the bare servers read it, bodies decoded once. */
export function bareRoutes(json = process.env.BARE_ROUTES ?? '{}') {
  const routes = JSON.parse(json) as Record<string, BareRoute>;
  const decode = (a: Answer) => ({ headers: a.headers, body: Buffer.from(a.body, 'base64') });
  return new Map(Object.entries(routes).map(([url, r]) => [url, { plain: decode(r.plain), br: r.br ? decode(r.br) : undefined }] as const));
}

export const acceptsBrotli = (acceptEncoding: string | undefined) => Boolean(acceptEncoding?.includes('br'));
