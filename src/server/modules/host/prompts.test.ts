import { describe, expect, it } from 'vitest';
import { PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import { HOST_POLL_OPTIONS_MAX, HOST_PROMPT_MAX, hostPromptsSchema } from '../../../shared/schemas/host';
import { CHAT_MESSAGE_MAX } from '../../../shared/schemas/mixers';
import { DEFAULT_POLLS, defaultPrompts, HANDWRITTEN_TOPICS, pollFor, suggestedReply } from './prompts';

describe('default host prompts', () => {
  it('has at least 8 handwritten topics with 6 prompts each', () => {
    expect(HANDWRITTEN_TOPICS.length).toBeGreaterThanOrEqual(8);
    for (const topic of HANDWRITTEN_TOPICS) expect(defaultPrompts(topic), topic).toHaveLength(6);
  });

  it('gives every predefined interest and General six valid, filled-in questions', () => {
    for (const topic of [...PREDEFINED_INTERESTS.map((i) => i.name), 'General', 'Something new']) {
      const prompts = defaultPrompts(topic);
      expect(prompts.length, topic).toBeGreaterThanOrEqual(6);
      expect(hostPromptsSchema.safeParse({ prompts }).success, topic).toBe(true);
      for (const p of prompts) {
        expect(p, topic).not.toMatch(/\{|\}/);
        expect(p.length).toBeLessThanOrEqual(HOST_PROMPT_MAX);
        expect(p, topic).toMatch(/[?…]$/);
      }
    }
  });

  it('polls have 2 to 4 answers and every instance picks the same one for a mixer', () => {
    for (const poll of DEFAULT_POLLS) {
      expect(poll.options.length).toBeGreaterThanOrEqual(2);
      expect(poll.options.length).toBeLessThanOrEqual(HOST_POLL_OPTIONS_MAX);
    }
    const id = 'b635508c-e230-455c-b931-6b33c5940ffd';
    expect(pollFor(id)).toBe(pollFor(id));
    expect(suggestedReply('a:b', 'Best gig ever?')).toBe(suggestedReply('a:b', 'Best gig ever?'));
  });

  it("suggests a reply that takes up the room's current prompt, short enough to send", () => {
    const prompt = "What's the best gig you've ever been to, and who did you go with?";
    for (const seed of ['a:b', 'c:d', 'e:f', 'g:h', 'i:j']) expect(suggestedReply(seed, prompt)).toContain(`‘${prompt}’`);
    const long = `${'Which tiny, overlooked detail of a place you love would you show a stranger first '.repeat(4)}?`;
    const reply = suggestedReply('a:b', long);
    expect(reply).toMatch(/‘Which tiny, overlooked detail[^’]*…’/);
    expect(reply.length).toBeLessThan(CHAT_MESSAGE_MAX);
    expect(suggestedReply('a:b', prompt)).not.toBe(suggestedReply('a:b', long));
  });
});
