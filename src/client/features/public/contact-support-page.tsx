import { zodResolver } from '@hookform/resolvers/zod';
import { ChevronDown, CircleCheck, Flag, LifeBuoy, Mail, Phone, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { CONTACT_MESSAGE_MAX, CONTACT_TOPICS, type ContactInput, type ContactTopic, contactSchema } from '../../../shared/schemas/contact';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { describedBy as describedByOf, Field, Input, Textarea } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { displayName, useAuth } from '../../lib/auth';
import { PublicLayout, PageHeader } from './public-layout';
import { usePageTitle } from '../../lib/use-page-title';

const FIELDS = ['name', 'email', 'topic', 'message'] as const;

const HELP = [
  {
    icon: Phone,
    title: 'In an emergency',
    body: (
      <>
        If you or someone else is in immediate danger, call <strong className="text-foreground">999</strong>. To report something that isn't
        an emergency to the police, call <strong className="text-foreground">101</strong>.
      </>
    ),
  },
  {
    icon: Flag,
    title: 'Reporting a member',
    body: <>The quickest way is Report on their profile or in the chat: it reaches our moderation team with everything they need.</>,
  },
  {
    icon: ShieldCheck,
    title: 'Your data',
    body: (
      <>
        Download a copy of your data or delete your account at any time in{' '}
        <Link to="/settings" className="font-medium text-primary underline underline-offset-4">
          Settings
        </Link>
        . Our{' '}
        <Link to="/privacy" className="font-medium text-primary underline underline-offset-4">
          Privacy Policy
        </Link>{' '}
        explains the rest.
      </>
    ),
  },
];

function topicFrom(params: URLSearchParams): ContactTopic | '' {
  const t = params.get('topic');
  return (CONTACT_TOPICS as readonly string[]).includes(t ?? '') ? (t as ContactTopic) : '';
}

export default function ContactSupportPage() {
  usePageTitle('Contact Support');
  const auth = useAuth();
  const toast = useToast();
  const [params] = useSearchParams();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const successRef = useRef<HTMLHeadingElement>(null);

  const form = useForm<ContactInput>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: '', email: '', topic: topicFrom(params) as ContactTopic, message: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const messageLength = (form.watch('message') ?? '').length;

  // Signed-in members get their name and address filled in (they can still change them).
  const user = auth.user;
  const profile = auth.profile;
  useEffect(() => {
    if (!user) return;
    const { getValues, setValue } = form;
    if (!getValues('name')) setValue('name', displayName(profile, user));
    if (!getValues('email')) setValue('email', user.email);
  }, [user, profile, form]);

  useEffect(() => {
    if (sentTo) successRef.current?.focus();
  }, [sentTo]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await api('/api/contact', { body: values });
      const email = values.email.trim().toLowerCase();
      toast({ title: 'Message sent', description: `Thanks for getting in touch. We'll reply to ${email} as soon as we can.` });
      setSentTo(email);
    } catch (err) {
      const apiErr = err instanceof ApiError ? err : null;
      for (const [field, message] of Object.entries(apiErr?.fields ?? {})) {
        if ((FIELDS as readonly string[]).includes(field)) form.setError(field as (typeof FIELDS)[number], { message });
      }
      toast({
        title: 'Message not sent',
        description: apiErr?.message || 'Something went wrong. Please try again.',
        variant: 'destructive',
      });
    }
  });

  const describedBy = (field: (typeof FIELDS)[number], hint?: boolean) => describedByOf(field, errors[field]?.message, hint);

  return (
    <PublicLayout>
      <PageHeader
        icon={LifeBuoy}
        eyebrow="Help"
        title="Contact Support"
        lead="Stuck, worried about something, or just have an idea? Tell us. A real person at Fancy reads every message, and we usually reply within two working days."
      />

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-5 md:py-12 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-10">
        <Card className="p-5 sm:p-8 lg:self-start">
          {sentTo ? (
            <div className="flex flex-col items-start py-4">
              <span className="flex size-12 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
                <CircleCheck className="size-6" aria-hidden />
              </span>
              <h2 ref={successRef} tabIndex={-1} className="mt-4 font-display text-2xl font-extrabold outline-none">
                Thanks, your message is on its way
              </h2>
              <p className="mt-2 text-muted-foreground">
                We'll reply to <strong className="text-foreground">{sentTo}</strong>. If it's about your safety and it's urgent, please also
                use Report in the app so our moderators see it straight away.
              </p>
              <div className="mt-6 flex flex-wrap gap-3">
                <Button
                  variant="outline"
                  onClick={() => {
                    form.reset({ ...form.getValues(), topic: '' as ContactTopic, message: '' });
                    setSentTo(null);
                  }}
                >
                  Send another message
                </Button>
                <Button asChild>
                  <Link to={auth.user ? '/home' : '/'}>{auth.user ? 'Back to your dashboard' : 'Back to the home page'}</Link>
                </Button>
              </div>
            </div>
          ) : (
            <form onSubmit={onSubmit} noValidate aria-labelledby="contact-form-title" className="grid gap-5">
              <div>
                <h2 id="contact-form-title" className="font-display text-2xl font-extrabold">
                  Send us a message
                </h2>
                <p className="mt-1 text-sm text-muted-foreground">All fields are required.</p>
              </div>
              <div className="grid gap-5 sm:grid-cols-2">
                <Field id="name" label="Your name" error={errors.name?.message}>
                  <Input
                    id="name"
                    autoComplete="name"
                    aria-invalid={Boolean(errors.name)}
                    aria-describedby={describedBy('name')}
                    {...form.register('name')}
                  />
                </Field>
                <Field id="email" label="Email for our reply" error={errors.email?.message}>
                  <Input
                    id="email"
                    type="email"
                    autoComplete="email"
                    aria-invalid={Boolean(errors.email)}
                    aria-describedby={describedBy('email')}
                    {...form.register('email')}
                  />
                </Field>
              </div>
              <Field id="topic" label="What's it about?" error={errors.topic?.message}>
                <div className="relative">
                  <select
                    id="topic"
                    aria-invalid={Boolean(errors.topic)}
                    aria-describedby={describedBy('topic')}
                    className="h-11 w-full appearance-none rounded-xl border border-input bg-card px-3.5 pr-10 text-base text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive md:text-sm"
                    {...form.register('topic')}
                  >
                    <option value="">Choose a topic</option>
                    {CONTACT_TOPICS.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                  <ChevronDown
                    aria-hidden
                    className="pointer-events-none absolute right-3.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
                  />
                </div>
              </Field>
              <Field
                id="message"
                label="Your message"
                error={errors.message?.message}
                hint={
                  <span className="flex justify-between gap-3">
                    <span>Please don't include passwords. If it's about a member, their name and the mixer help.</span>
                    <span className={cn('shrink-0 tabular-nums', messageLength > CONTACT_MESSAGE_MAX && 'font-semibold text-destructive')}>
                      {messageLength}/{CONTACT_MESSAGE_MAX}
                    </span>
                  </span>
                }
              >
                <Textarea
                  id="message"
                  rows={7}
                  className="min-h-40"
                  aria-invalid={Boolean(errors.message)}
                  aria-describedby={describedBy('message', true)}
                  {...form.register('message')}
                />
              </Field>
              <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
                <p className="text-xs text-muted-foreground">
                  We use your message only to help you. See our{' '}
                  <Link to="/privacy" className="underline underline-offset-4 hover:text-foreground">
                    Privacy Policy
                  </Link>
                  .
                </p>
                <Button type="submit" size="lg" disabled={isSubmitting} className="sm:w-auto">
                  <Mail aria-hidden />
                  {isSubmitting ? 'Sending…' : 'Send message'}
                </Button>
              </div>
            </form>
          )}
        </Card>

        <aside aria-label="Other ways to get help" className="grid content-start gap-4">
          {HELP.map(({ icon: Icon, title, body }) => (
            <section key={title} className="rounded-2xl border border-border bg-card p-5">
              <h2 className="flex items-center gap-2.5 font-semibold">
                <span className="flex size-9 items-center justify-center rounded-xl bg-accent text-accent-foreground">
                  <Icon className="size-4" aria-hidden />
                </span>
                {title}
              </h2>
              <p className="mt-2.5 text-sm text-muted-foreground">{body}</p>
            </section>
          ))}
          <section className="rounded-2xl border border-border bg-muted/60 p-5">
            <h2 className="font-semibold">Who runs Fancy</h2>
            <p className="mt-2 text-sm text-muted-foreground">
              Fancy is operated by Fancy, a UK service for adults 18 and over. You can also write to us at{' '}
              <strong className="text-foreground">support@fancy.example</strong>.
            </p>
          </section>
        </aside>
      </div>
    </PublicLayout>
  );
}
