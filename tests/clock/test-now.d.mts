export function testClockOffset(env?: Record<string, string | undefined>): number;
export function shiftClock(scope: { Date: DateConstructor }, offset: number): DateConstructor;
