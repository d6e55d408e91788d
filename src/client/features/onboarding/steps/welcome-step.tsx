import { HeartHandshake, MessagesSquare, UsersRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import type { StepProps } from './types';

const CARDS = [
  {
    icon: UsersRound,
    title: 'Join Themed Mixers',
    text: 'Hop into themed mixers with 4-8 people who share your interests.',
  },
  {
    icon: MessagesSquare,
    title: 'Real Conversations',
    text: 'No swiping, no bios to judge. Just chatting about the things you love.',
  },
  {
    icon: HeartHandshake,
    title: 'Mutual Connections',
    text: 'Private chats open only when the feeling is mutual.',
  },
];

/** Step 1 (spec §2): the welcome, three cards and "let's go →". */
export function WelcomeStep({ next }: StepProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  return (
    <section aria-labelledby="wizard-step-title" className="mx-auto w-full max-w-3xl text-center">
      <span className="mx-auto inline-flex items-center rounded-full bg-accent px-3.5 py-1 text-sm font-semibold text-accent-foreground">
        Welcome to Fancy
      </span>
      <h1
        id="wizard-step-title"
        ref={heading}
        tabIndex={-1}
        className="mx-auto mt-5 max-w-2xl font-display text-4xl leading-[1.1] font-extrabold tracking-tight text-balance outline-none sm:text-5xl"
      >
        Hey there – ready to create your profile?
      </h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-muted-foreground">
        We'll turn your vibes into something magical. Just a few quick steps, no boring forms, promise.
      </p>
      <ul className="mt-10 grid gap-4 text-left sm:grid-cols-3">
        {CARDS.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card className="flex h-full gap-4 p-5 sm:block sm:p-6">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
                <Icon className="size-6" aria-hidden />
              </span>
              <div>
                <h2 className="text-lg font-bold sm:mt-4">{title}</h2>
                <p className="mt-1 text-sm leading-relaxed text-muted-foreground sm:mt-1.5">{text}</p>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <Button size="lg" onClick={next} className="mt-10 h-14 w-full px-10 text-lg sm:w-auto">
        let's go →
      </Button>
    </section>
  );
}
