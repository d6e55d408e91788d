let serverRenderCookies: string | undefined;

/**
 * The page's cookies: `document.cookie` in the browser; on the server, those of the request a
 * member page is rendered for (src/client/ssr.tsx), so what a cookie remembers (the sidebar's
 * state) is rendered as the browser will hydrate it.
 */
export function pageCookies(): string {
  return typeof document === 'undefined' ? (serverRenderCookies ?? '') : document.cookie;
}

/** One cookie's value from pageCookies(), or undefined when it is not set. */
export function cookieValue(name: string): string | undefined {
  for (const part of pageCookies().split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === name) return part.slice(eq + 1);
  }
  return undefined;
}

/** The request's Cookie header while the server renders a member page; `undefined` afterwards. */
export function setServerRenderCookies(header: string | undefined) {
  serverRenderCookies = header;
}
