/** The host's requests (issue 29, docs/decisions/034): one schema validates the client and the server. */
import { z } from 'zod';
import { HOST_MESSAGES, HOST_POLL_OPTIONS_MAX, HOST_PROMPT_MAX, HOST_PROMPTS_MAX } from '../host-texts';
import './zod-defaults';

export * from '../host-texts';

export const pollVoteSchema = z.object({
  option: z
    .number({ error: HOST_MESSAGES.optionUnknown })
    .int(HOST_MESSAGES.optionUnknown)
    .min(0, HOST_MESSAGES.optionUnknown)
    .max(HOST_POLL_OPTIONS_MAX - 1, HOST_MESSAGES.optionUnknown),
});
export type PollVote = z.infer<typeof pollVoteSchema>;

export const nudgeActionSchema = z.object({
  action: z.enum(['send', 'dismiss'], { error: 'Choose send or dismiss' }),
});
export type NudgeAction = z.infer<typeof nudgeActionSchema>;

export const hostSwitchSchema = z.object({ enabled: z.boolean({ error: HOST_MESSAGES.enabledRequired }) });

export const hostPromptsSchema = z.object({
  prompts: z
    .array(
      z
        .string({ error: HOST_MESSAGES.promptRequired })
        .trim()
        .min(1, HOST_MESSAGES.promptRequired)
        .max(HOST_PROMPT_MAX, HOST_MESSAGES.promptTooLong),
      { error: HOST_MESSAGES.promptRequired },
    )
    .min(1, HOST_MESSAGES.promptRequired)
    .max(HOST_PROMPTS_MAX, HOST_MESSAGES.tooManyPrompts),
});
export type HostPromptsInput = z.infer<typeof hostPromptsSchema>;

export const topicParamsSchema = z.object({
  topic: z.string().trim().min(1, HOST_MESSAGES.topicNotFound).max(80, HOST_MESSAGES.topicNotFound),
});

/** One poll as one member sees it: counts without the votes of anyone hidden from them. */
