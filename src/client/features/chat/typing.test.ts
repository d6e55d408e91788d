import { describe, expect, it } from 'vitest';
import { TypingThrottle, typingText } from './typing';

describe('typingText', () => {
  it('says who is typing in the issue’s words', () => {
    expect(typingText([])).toBeNull();
    expect(typingText(['Maya'])).toBe('Maya is typing…');
    expect(typingText(['Maya', 'Rhys'])).toBe('Maya and Rhys are typing…');
    expect(typingText(['Maya', 'Rhys', 'Ada'])).toBe('Several people are typing…');
    expect(typingText(['Maya', 'Rhys', 'Ada', 'Bo', 'Cy'])).toBe('Several people are typing…');
  });
});

describe('TypingThrottle', () => {
  const setup = () => {
    let now = 0;
    const sent: boolean[] = [];
    const throttle = new TypingThrottle(
      (on) => sent.push(on),
      () => now,
      3000,
    );
    return { sent, throttle, at: (ms: number) => (now = ms) };
  };

  it('sends at the first key, then at most once per 3 s while keys keep coming', () => {
    const { sent, throttle, at } = setup();
    for (let ms = 0; ms <= 10_000; ms += 100) {
      at(ms);
      throttle.keystroke();
    }
    // 0, 3000, 6000, 9000
    expect(sent).toEqual([true, true, true, true]);
  });

  it('stop sends false once, only after a true, and the next key sends at once', () => {
    const { sent, throttle, at } = setup();
    throttle.stop();
    expect(sent).toEqual([]);
    at(100);
    throttle.keystroke();
    at(200);
    throttle.stop();
    throttle.stop();
    expect(sent).toEqual([true, false]);
    at(300);
    throttle.keystroke();
    expect(sent).toEqual([true, false, true]);
  });
});
