import { useMutation, useQuery } from '@tanstack/react-query';
import { CircleCheck, Gavel } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { APPEAL_TEXT_MAX, actionLabel, appealByLinkSchema } from '../../../shared/schemas/moderation';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, Input, Textarea } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { ApiError, api } from '../../lib/api';
import { usePageTitle } from '../../lib/use-page-title';
import { PageHeader, PublicLayout } from './public-layout';

interface LinkInfo {
  action: string;
  days: number | null;
  rule: string;
  quote: string | null;
  appealed: boolean;
  needsEmail: boolean;
}

/**
 * The one-time appeal link mailed to a suspended or banned member (issue 30): they cannot sign
 * in, so the link itself is the proof; a ban also asks for the account's address.
 */
export default function AppealPage() {
  usePageTitle('Appeal a decision');
  const id = useId();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useQuery({
    queryKey: ['appeal-link', token],
    queryFn: () => api<LinkInfo>(`/api/appeals/link?token=${encodeURIComponent(token)}`),
    enabled: token.length > 0,
    retry: false,
  });
  const [text, setText] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useMutation({ mutationFn: (body: object) => api<{ id: string }>('/api/appeals/link', { method: 'POST', body }) });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = appealByLinkSchema.safeParse({ token, text, ...(info.data?.needsEmail ? { email } : {}) });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      return setErrors(next);
    }
    setErrors({});
    try {
      await send.mutateAsync(parsed.data);
    } catch (err) {
      setErrors({ text: err instanceof ApiError ? err.message : 'Something went wrong. Please try again.' });
    }
  };

  return (
    <PublicLayout>
      <PageHeader
        icon={Gavel}
        eyebrow="Moderation"
        title="Appeal a decision"
        lead="Tell us why we should look again. A different member of our team decides."
        narrow
      />
      <div className="mx-auto max-w-xl px-4 pb-16">
        <Card className="grid gap-4 p-5 sm:p-6">
          {!token || info.isError ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              This appeal link is not valid or has expired.
            </p>
          ) : info.isPending ? (
            <Spinner label="Loading" />
          ) : send.isSuccess || info.data.appealed ? (
            <p className="flex items-center gap-2 text-sm font-medium">
              <CircleCheck className="size-5 text-success" aria-hidden />
              {send.isSuccess
                ? 'Appeal sent. We’ll e-mail you the outcome.'
                : 'You have already appealed this decision. We’ll e-mail you the outcome.'}
            </p>
          ) : (
            <>
              <dl className="grid gap-1 text-sm">
                <div>
                  <dt className="inline font-medium">Decision: </dt>
                  <dd className="inline">{actionLabel(info.data.action, info.data.days)}</dd>
                </div>
                <div>
                  <dt className="inline font-medium">Rule: </dt>
                  <dd className="inline">{info.data.rule}</dd>
                </div>
                {info.data.quote && (
                  <div>
                    <dt className="inline font-medium">Line: </dt>
                    <dd className="inline">“{info.data.quote}”</dd>
                  </div>
                )}
              </dl>
              <form onSubmit={submit} noValidate className="grid gap-4">
                {info.data.needsEmail && (
                  <Field id={`${id}-email`} label="The e-mail address of the account" error={errors.email}>
                    <Input id={`${id}-email`} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
                  </Field>
                )}
                <Field id={`${id}-text`} label="Why should we look again?" error={errors.text ?? errors.token}>
                  <Textarea
                    id={`${id}-text`}
                    value={text}
                    maxLength={APPEAL_TEXT_MAX + 50}
                    onChange={(e) => setText(e.target.value)}
                    aria-invalid={Boolean(errors.text)}
                    className="min-h-28"
                  />
                </Field>
                <Button type="submit" disabled={send.isPending} className="justify-self-start">
                  {send.isPending ? 'Sending…' : 'Send appeal'}
                </Button>
              </form>
            </>
          )}
        </Card>
      </div>
    </PublicLayout>
  );
}
