import { describe, expect, it } from 'vitest';
import { PREDEFINED_INTERESTS } from '../../../shared/reference/catalog';
import { HOST_POLL_OPTIONS_MAX, HOST_PROMPT_MAX, hostPromptsSchema } from '../../../shared/schemas/host';
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
    expect(suggestedReply('a:b')).toBe(suggestedReply('a:b'));
  });
});
