/**
 * "Now" for what a page says about time ("Starts in 25 min", "5m", "Good evening"). A page the
 * server rendered (decision 028) is hydrated with the instant it was rendered at, so its labels
 * come out as the server wrote them; once the app has taken over, now is now again.
 */
let renderedAt: number | undefined;

export function now(): Date {
  return new Date(renderedAt ?? Date.now());
}

/** The instant a server-rendered page was made at, while it is rendered or hydrated; `undefined` after. */
export function setRenderedAt(ms: number | undefined) {
  renderedAt = ms;
}
