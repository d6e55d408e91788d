let serverRenderCookies: string | undefined;
let browserCookies: string | undefined;

/**
 * The page's cookies: `document.cookie` in the browser, read once (each read asks the browser's
 * network process, several milliseconds on a busy phone) and again after setPageCookie; on the
 * server, those of the request a member page is rendered for (src/client/ssr.tsx), so what a
 * cookie remembers (the sidebar's state) is rendered as the browser will hydrate it.
 */
export function pageCookies(): string {
  if (typeof document === 'undefined') return serverRenderCookies ?? '';
  browserCookies ??= document.cookie;
  return browserCookies;
}

/** One cookie's value from pageCookies(), or undefined when it is not set. */
export function cookieValue(name: string): string | undefined {
  for (const part of pageCookies().split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === name) return part.slice(eq + 1);
  }
  return undefined;
}

/** Remembers `name=value` in a first-party cookie of the whole site for `maxAgeS` seconds. */
export function setPageCookie(name: string, value: string, maxAgeS: number) {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps this state in cookies; the Cookie Store API is not in every browser
  document.cookie = `${name}=${value}; path=/; max-age=${maxAgeS}; samesite=lax`;
  browserCookies = undefined;
}

/** The request's Cookie header while the server renders a member page; `undefined` afterwards. */
export function setServerRenderCookies(header: string | undefined) {
  serverRenderCookies = header;
}
