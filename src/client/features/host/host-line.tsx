import { ArrowRight, MessagesSquare } from 'lucide-react';
import { Link } from 'react-router';
import type { ChatMessage } from '../../../shared/realtime/events';
import { HOST_TEXTS } from '../../../shared/host-texts';
import { MIXER_MESSAGES } from '../../../shared/mixer-facts';
import { useHostView } from './api';
import { PollCard } from './poll-card';

/**
 * A line in the host's voice (issue 29): never from a member account, so it has no avatar and no
 * bubble; a labelled card across the room instead. The halfway game's line carries its poll;
 * the closing line leads to the "Who did you click with?" prompt.
 */
export function HostLine({ message }: { message: ChatMessage }) {
  const host = useHostView(message.mixerId);
  const poll = host.data?.polls.find((p) => p.messageId === message.id);
  const closing = message.body === MIXER_MESSAGES.endedSystem;
  const body = poll ? message.body.replace(HOST_TEXTS.pollPrefix, '') : message.body;

  return (
    <li className="my-3 flex justify-center" data-host-line>
      <div className="w-full max-w-md rounded-2xl border border-dashed border-primary/40 bg-primary/5 px-4 py-3 dark:bg-primary/10">
        <p className="flex items-center gap-1.5 text-xs font-bold uppercase tracking-wider text-primary">
          <MessagesSquare className="size-3.5" aria-hidden />
          {poll ? 'Host · halfway game' : 'Host'}
        </p>
        <p className="mt-1 text-[15px] font-medium leading-snug text-foreground">{body}</p>
        {poll && <PollCard mixerId={message.mixerId} poll={poll} />}
        {closing && (
          <Link
            to={`/mixers/${message.mixerId}/after`}
            className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
          >
            {HOST_TEXTS.clickWith} <ArrowRight className="size-4" aria-hidden />
          </Link>
        )}
      </div>
    </li>
  );
}
