import { describe, expect, it } from 'vitest';
import { guardMixerLine } from '../src/server/modules/guard/service';
import { toChatMessage } from '../src/server/modules/mixers/chat';
import { FLOOD_LINES, FLOOD_WINDOW_MS } from '../src/shared/schemas/guard';
import { CHAT_RATE_LIMIT } from '../src/shared/schemas/mixers';
import type { ServerEvent } from '../src/shared/realtime/events';
import { benchLine, deliveredToken, lineToken, MEMBER_LINE_MS } from './chat-load';

/** Every token of up to three words, and a spread of the four-word ones a long bench run reaches. */
const TOKENS = [...Array.from({ length: 4096 }, (_, n) => n), ...Array.from({ length: 2000 }, (_, i) => 4096 + i * 31)].map(lineToken);

describe("the chat benches' load", () => {
  it('words every line so that the guard lets it through, and no two lines alike', async () => {
    expect(new Set(TOKENS).size).toBe(TOKENS.length);
    const stopped: string[] = [];
    for (const token of TOKENS) {
      const line = benchLine(token);
      const verdict = await guardMixerLine(line, false, async () => []).catch((err: { code?: string }) => err.code ?? 'error');
      if (verdict !== null) stopped.push(`${line}: ${verdict}`);
    }
    expect(stopped).toEqual([]);
    // The benches find a delivery by the line's first word.
    expect(benchLine(lineToken(70_000)).split(' ')[0]).toBe(lineToken(70_000));
  });

  it("paces a member within the chat limit and slow mode's flood rule, whatever window is looked at", () => {
    const mostInWindow = (windowMs: number) => Math.floor(windowMs / MEMBER_LINE_MS) + 1;
    expect(mostInWindow(FLOOD_WINDOW_MS)).toBeLessThanOrEqual(FLOOD_LINES);
    expect(mostInWindow(CHAT_RATE_LIMIT.windowMs)).toBeLessThanOrEqual(CHAT_RATE_LIMIT.limit);
  });

  it("reads a delivered line's token from the frame the server sends, and nothing from other frames", () => {
    const token = lineToken(70_000);
    // As the server words it (the order of its keys is what the reader relies on), replying to a line.
    const message = toChatMessage(
      'x1',
      {
        id: 'm1',
        kind: 'member',
        body: benchLine(token),
        sender_id: 'u1',
        created_at: '2026-12-01T10:00:00.000Z',
        cursor_ts: '2026-12-01T10:00:00.000Z',
        name: 'Maya Okafor',
        avatar: null,
        reply_to_id: 'm0',
        reply_name: 'Ben',
        reply_body: 'amber earlier line',
      },
      { url: (key: string) => key } as unknown as Parameters<typeof toChatMessage>[2],
    );
    const frame = (event: ServerEvent) => Buffer.from(JSON.stringify(event));
    expect(deliveredToken(frame({ type: 'mixer.message', message }))).toBe(token);
    expect(deliveredToken(frame({ type: 'sent', ref: 'b1', message }))).toBeNull();
    expect(deliveredToken(frame({ type: 'pong' }))).toBeNull();
  });
});
