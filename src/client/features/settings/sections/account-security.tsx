import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod/mini';
import { changeEmailSchema, changePasswordFormSchema } from '../../../../shared/schemas/settings';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { useAuth } from '../../../lib/auth';
import { settingsKey, useChangeEmail, useChangePassword } from '../api';
import { applyFieldErrors, errorMessage } from '../components/form-errors';
import { PasswordField } from '../components/password-field';
import { CardBlock } from '../components/section';

/** Whether a block's form is open; closing it (Cancel, or done) clears what was typed. */
function useOpenForm(form: { reset(): void }) {
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    form.reset();
  };
  return { open, show: () => setOpen(true), close };
}

/** "Change …": opens the block's form (and is gone while it is open). */
function OpenButton({ open, controls, onOpen, children }: { open: boolean; controls: string; onOpen(): void; children: string }) {
  if (open) return null;
  return (
    <Button variant="outline" size="sm" onClick={onOpen} aria-expanded={open} aria-controls={controls}>
      {children}
    </Button>
  );
}

/** Cancel (closes and clears the form) and the submit button, which says what it is doing. */
function FormButtons({ busy, busyLabel, label, onCancel }: { busy: boolean; busyLabel: string; label: string; onCancel(): void }) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row">
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}

type EmailValues = z.input<typeof changeEmailSchema>;

export function EmailBlock({ email }: { email: string }) {
  const toast = useToast();
  const [pending, setPending] = useState<string | null>(null);
  const change = useChangeEmail();
  const form = useForm<EmailValues>({ resolver: zodResolver(changeEmailSchema), defaultValues: { newEmail: '', password: '' } });
  const { errors, isSubmitting } = form.formState;
  const { open, show, close } = useOpenForm(form);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await change.mutateAsync(values as { newEmail: string; password: string });
      setPending(res.pendingEmail);
      close();
      toast({ title: 'Check your new inbox', description: `We sent a confirmation link to ${res.pendingEmail}.` });
    } catch (err) {
      if (!applyFieldErrors(err, form.setError, ['newEmail', 'password'])) {
        toast({ title: "Couldn't change your email", description: errorMessage(err), variant: 'destructive' });
      }
    }
  });

  return (
    <CardBlock
      title="Email address"
      description={
        <>
          You sign in with <span className="inline-block max-w-full font-medium text-foreground">{email}</span>.
        </>
      }
      action={
        <OpenButton open={open} controls="change-email-form" onOpen={show}>
          Change email
        </OpenButton>
      }
    >
      {pending && !open && (
        <p className="flex items-start gap-2 rounded-xl bg-accent/60 p-3 text-sm" role="status">
          <MailCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span>
            Open the link we sent to <span className="inline-block max-w-full font-medium">{pending}</span> while logged in to this account
            (or log in when it asks) to finish. Until then we keep using your current address, and we've let it know about the change.
          </span>
        </p>
      )}
      {open && (
        <form id="change-email-form" onSubmit={onSubmit} noValidate className="grid gap-4 sm:max-w-md">
          <Field id="new-email" label="New email address" error={errors.newEmail?.message}>
            <Input
              id="new-email"
              type="email"
              autoComplete="email"
              aria-invalid={Boolean(errors.newEmail)}
              aria-describedby={errors.newEmail ? 'new-email-error' : undefined}
              {...form.register('newEmail')}
            />
          </Field>
          <PasswordField
            id="email-password"
            label="Your password"
            autoComplete="current-password"
            error={errors.password?.message}
            hint="To keep your account safe, please confirm it's you."
            {...form.register('password')}
          />
          <p className="text-sm text-muted-foreground">
            We'll email a link to the new address. Your email changes when you open it logged in to this account, and we'll tell your
            current address too.
          </p>
          <FormButtons busy={isSubmitting} busyLabel="Sending link…" label="Send confirmation link" onCancel={close} />
        </form>
      )}
    </CardBlock>
  );
}

type PasswordValues = z.input<typeof changePasswordFormSchema>;

export function PasswordBlock() {
  const toast = useToast();
  const auth = useAuth();
  const qc = useQueryClient();
  const change = useChangePassword();
  const form = useForm<PasswordValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const { open, show, close } = useOpenForm(form);

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      close();
      toast({ title: 'Password changed', description: "You're still signed in here. Every other device was signed out." });
      void auth.refresh();
      void qc.invalidateQueries({ queryKey: settingsKey });
    } catch (err) {
      if (!applyFieldErrors(err, form.setError, ['currentPassword', 'newPassword'])) {
        toast({ title: "Couldn't change your password", description: errorMessage(err), variant: 'destructive' });
      }
    }
  });

  return (
    <CardBlock
      title="Password"
      description="Changing it signs you out everywhere else."
      action={
        <OpenButton open={open} controls="change-password-form" onOpen={show}>
          Change password
        </OpenButton>
      }
    >
      {open && (
        <form id="change-password-form" onSubmit={onSubmit} noValidate className="grid gap-4 sm:max-w-md">
          <PasswordField
            id="current-password"
            label="Current password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...form.register('currentPassword')}
          />
          <PasswordField
            id="new-password"
            label="New password"
            autoComplete="new-password"
            error={errors.newPassword?.message}
            hint="At least 8 characters. A short phrase is easy to remember and hard to guess."
            {...form.register('newPassword')}
          />
          <PasswordField
            id="confirm-password"
            label="Repeat new password"
            autoComplete="new-password"
            error={errors.confirm?.message}
            {...form.register('confirm')}
          />
          <FormButtons busy={isSubmitting} busyLabel="Changing…" label="Change password" onCancel={close} />
        </form>
      )}
    </CardBlock>
  );
}
