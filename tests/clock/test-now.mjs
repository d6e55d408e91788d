/**
 * The test clock: with FANCY_TEST_NOW set (any date string Date.parse reads, with its offset,
 * e.g. 2026-11-28T23:59:00Z), every Node process that loads this module sees the wall clock start
 * at that moment and run on from there. vite.config.ts puts it in NODE_OPTIONS (`--import`) when
 * FANCY_TEST_NOW is set, so vitest's workers and every server a test spawns load it first. The
 * embedded database reads the same clock (PGlite's now() is Date.now() underneath), so SQL and
 * code agree. The e2e harness gives every browser page the same shift (`shiftClock`).
 *
 * Every process shares one anchor (FANCY_TEST_NOW_ANCHOR, the real instant the first process
 * read the setting, inherited by the rest), so a test and a server it spawned never disagree about
 * now. Monotonic time (performance.now, timers) is untouched: only "what time is it" moves.
 */
const INSTALLED = Symbol.for('fancy.testClock');

/** Milliseconds to add to the machine's clock; 0 when FANCY_TEST_NOW is not set. */
export function testClockOffset(env = process.env) {
  const target = env.FANCY_TEST_NOW;
  if (!target) return 0;
  const RealDate = globalThis[INSTALLED]?.RealDate ?? globalThis.Date;
  const at = RealDate.parse(target);
  if (Number.isNaN(at)) throw new Error(`FANCY_TEST_NOW is not a date: ${target}`);
  if (!env.FANCY_TEST_NOW_ANCHOR) env.FANCY_TEST_NOW_ANCHOR = String(RealDate.now());
  return at - Number(env.FANCY_TEST_NOW_ANCHOR);
}

/**
 * Replaces `scope.Date` with one whose "now" is `offset` ms from the machine's clock; dates made
 * from a value, `Date.parse`, `Date.UTC` and `instanceof Date` behave as ever. Self-contained, so
 * the harness can send its source to a browser page.
 */
export function shiftClock(scope, offset) {
  const Real = scope.Date;
  function ShiftedDate(...args) {
    if (!new.target) return new Real(Real.now() + offset).toString();
    return Reflect.construct(Real, args.length === 0 ? [Real.now() + offset] : args, new.target);
  }
  Object.defineProperty(ShiftedDate, 'name', { value: 'Date' });
  ShiftedDate.prototype = Real.prototype;
  Object.setPrototypeOf(ShiftedDate, Real);
  ShiftedDate.now = () => Real.now() + offset;
  scope.Date = ShiftedDate;
  return Real;
}

/**
 * Node writes an HTTP response's Date header from its own copy of the clock, which the shift does
 * not reach; a client that corrects for a server's clock (the S3 SDK does) would then sign with the
 * machine's time. Responses say the shifted time like everything else.
 */
async function shiftHttpDates() {
  const { ServerResponse } = await import('node:http');
  const writeHead = ServerResponse.prototype.writeHead;
  ServerResponse.prototype.writeHead = function (...args) {
    if (this.sendDate && !this.headersSent && !this.hasHeader('date')) this.setHeader('Date', new globalThis.Date().toUTCString());
    return writeHead.apply(this, args);
  };
}

if (!globalThis[INSTALLED]) {
  const offset = testClockOffset();
  if (offset !== 0) {
    globalThis[INSTALLED] = { RealDate: shiftClock(globalThis, offset), offset };
    await shiftHttpDates();
  }
}
