import { useQuery } from '@tanstack/react-query';
import { Copy, Megaphone, Plus, QrCode, Radar } from 'lucide-react';
import { useId, useState } from 'react';
import { type AdminCampaign, type CampaignInput, campaignInputSchema, campaignLinkQuery } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { describedBy, Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { AdminDialog, DialogFooter, showSaveError } from '../components/dialog';
import { EmptyState, ListStates } from '../components/states';
import { Table, Td, Th } from '../components/table';
import { fmtDate } from '../format';

const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .toUpperCase()
    .slice(0, 40);

const landingLink = (c: AdminCampaign) => `${window.location.origin}/campaign?${campaignLinkQuery(c)}`;
const registerLink = (c: AdminCampaign) => `${window.location.origin}/auth/register?${campaignLinkQuery(c)}`;
const qrPath = (c: AdminCampaign) => `/campaign/qr?${campaignLinkQuery(c)}`;
const rate = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '—');

const FIELDS: { key: keyof CampaignInput; label: string; hint: string; placeholder?: string }[] = [
  { key: 'label', label: 'Label', hint: 'Shown on the QR poster, e.g. “Freshers fair Leeds”.' },
  { key: 'code', label: 'Code', hint: 'Unique; letters, digits, dashes. Carried as ?code=…', placeholder: 'LEEDS-FRESHERS' },
  { key: 'source', label: 'Source', hint: 'utm_source, e.g. poster, instagram', placeholder: 'poster' },
  { key: 'medium', label: 'Medium', hint: 'utm_medium, e.g. print, social', placeholder: 'print' },
  { key: 'campaign', label: 'Campaign', hint: 'utm_campaign, e.g. freshers-2026', placeholder: 'freshers-2026' },
];

function CampaignDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const id = useId();
  const toast = useToast();
  const empty = { label: '', code: '', source: '', medium: '', campaign: '' };
  const [values, setValues] = useState<Record<keyof CampaignInput, string>>(empty);
  const [codeTouched, setCodeTouched] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setValues(empty);
      setCodeTouched(false);
      setErrors({});
    }
  }
  const create = useAdminMutation(adminApi.createCampaign);

  const change = (key: keyof CampaignInput, value: string) =>
    setValues((v) => ({ ...v, [key]: value, ...(key === 'label' && !codeTouched ? { code: slug(value) } : {}) }));

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = campaignInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      return setErrors(next);
    }
    setErrors({});
    try {
      await create.mutateAsync(values);
      toast({ title: 'Campaign created', description: `“${values.label}” has its link and QR code ready.` });
      onClose();
    } catch (err) {
      showSaveError(err, setErrors, toast, 'Could not create the campaign');
    }
  };

  return (
    <AdminDialog
      open={open}
      onOpenChange={(o) => !o && !create.isPending && onClose()}
      title="New campaign"
      description="Sign-ups through its link or QR code are credited to it."
      wide
    >
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <div key={f.key} className={f.key === 'label' ? 'sm:col-span-2' : undefined}>
            <Field
              id={`${id}-${f.key}`}
              label={f.key === 'label' || f.key === 'code' ? f.label : `${f.label} (optional)`}
              error={errors[f.key]}
              hint={f.hint}
            >
              <Input
                id={`${id}-${f.key}`}
                value={values[f.key]}
                placeholder={f.placeholder}
                maxLength={f.key === 'code' ? 40 : f.key === 'label' ? 80 : 100}
                className={f.key === 'code' ? 'font-mono' : undefined}
                aria-invalid={Boolean(errors[f.key])}
                aria-describedby={describedBy(`${id}-${f.key}`, errors[f.key], f.hint)}
                onChange={(e) => {
                  if (f.key === 'code') setCodeTouched(true);
                  change(f.key, e.target.value);
                }}
              />
            </Field>
          </div>
        ))}
        <div className="sm:col-span-2">
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create campaign'}
            </Button>
          </DialogFooter>
        </div>
      </form>
    </AdminDialog>
  );
}

/** Copy the landing or sign-up link, or open the printable QR code. */
function CampaignLinks({ c, copy, className }: { c: AdminCampaign; copy: (text: string, what: string) => void; className?: string }) {
  return (
    <div className={cn('flex flex-wrap gap-2', className)}>
      <Button
        size="sm"
        variant="outline"
        onClick={() => void copy(landingLink(c), 'campaign link')}
        aria-label={`Copy the link of ${c.label}`}
      >
        <Copy aria-hidden /> Link
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => void copy(registerLink(c), 'direct sign-up link')}
        aria-label={`Copy the direct sign-up link of ${c.label}`}
        title="Skips the welcome page"
      >
        <Copy aria-hidden /> Sign-up link
      </Button>
      <Button size="sm" asChild>
        <a href={qrPath(c)} target="_blank" rel="noreferrer" aria-label={`QR code of ${c.label} (opens in a new tab)`}>
          <QrCode aria-hidden /> QR code
        </a>
      </Button>
    </div>
  );
}

export default function AdminCampaignsPage() {
  const toast = useToast();
  const q = useQuery({ queryKey: adminKeys.campaigns, queryFn: adminApi.campaigns });
  const [creating, setCreating] = useState(false);
  const campaigns = q.data?.campaigns ?? [];
  const untracked = q.data?.untracked ?? [];

  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: 'Link copied', description: `The ${what} is on your clipboard.` });
    } catch {
      toast({ title: 'Could not copy', description: text, variant: 'destructive' });
    }
  };

  return (
    <AdminPage
      title="Campaigns"
      description="Links and QR codes for posters, partners and ads, and how many members each one brought."
      actions={
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden /> New campaign
        </Button>
      }
    >
      <div className="grid gap-6">
        <Section title="Your campaigns" description="Sign-ups match on the campaign code, whatever its capitals." id="campaign-list">
          <ListStates
            query={q}
            loading="Loading campaigns"
            isEmpty={campaigns.length === 0}
            empty={
              <EmptyState icon={Megaphone} title="No campaigns yet" text="Create one to get a registration link and a printable QR code." />
            }
          >
            <Table caption="Campaigns">
              <thead>
                <tr>
                  <Th>Campaign</Th>
                  <Th>Source / medium / campaign</Th>
                  <Th className="text-right">Sign-ups</Th>
                  <Th className="text-right">Verified</Th>
                  <Th className="text-right">Completed</Th>
                  <Th>Created</Th>
                  <Th className="hidden text-right 2xl:table-cell">Link and QR code</Th>
                </tr>
              </thead>
              <tbody>
                {campaigns.map((c) => (
                  <tr key={c.id} data-testid="campaign-row">
                    <Td className="min-w-48">
                      <p className="font-semibold">{c.label}</p>
                      <p className="font-mono text-xs text-muted-foreground">{c.code}</p>
                      {/* Below 1536 px the links sit here, so the table fits beside the sidebar. */}
                      <CampaignLinks c={c} copy={copy} className="mt-2 2xl:hidden" />
                    </Td>
                    <Td className="whitespace-nowrap text-muted-foreground">
                      {[c.source, c.medium, c.campaign].map((v) => v || '—').join(' / ')}
                    </Td>
                    <Td className="text-right font-semibold tabular-nums">{c.signups}</Td>
                    <Td className="text-right tabular-nums">{c.verified}</Td>
                    <Td className="whitespace-nowrap text-right tabular-nums">
                      {c.completed} <span className="text-xs text-muted-foreground">({rate(c.completed, c.signups)})</span>
                    </Td>
                    <Td className="whitespace-nowrap text-muted-foreground">
                      {fmtDate(c.createdAt)}
                      {c.createdBy && <span className="block text-xs">by {c.createdBy}</span>}
                    </Td>
                    <Td className="hidden text-right 2xl:table-cell">
                      <CampaignLinks c={c} copy={copy} className="justify-end" />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ListStates>
        </Section>

        <Section
          title="Other attributed sign-ups"
          description="Sign-ups carrying campaign details that match no campaign above (links made by hand or by partners)."
          id="untracked"
        >
          <ListStates
            query={q}
            loading="Loading"
            rows={2}
            quietError
            isEmpty={untracked.length === 0}
            empty={<EmptyState icon={Radar} title="Nothing untracked" text="Every attributed sign-up belongs to one of your campaigns." />}
          >
            <Table caption="Other attributed sign-ups">
              <thead>
                <tr>
                  <Th>Source</Th>
                  <Th>Campaign</Th>
                  <Th>Code</Th>
                  <Th className="text-right">Sign-ups</Th>
                  <Th className="text-right">Completed</Th>
                </tr>
              </thead>
              <tbody>
                {untracked.map((u) => (
                  <tr key={`${u.source}|${u.campaign}|${u.code}`}>
                    <Td>{u.source || '—'}</Td>
                    <Td>{u.campaign || '—'}</Td>
                    <Td className="font-mono text-xs">{u.code || '—'}</Td>
                    <Td className="text-right tabular-nums">{u.signups}</Td>
                    <Td className="text-right tabular-nums">{u.completed}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ListStates>
        </Section>
      </div>
      <CampaignDialog open={creating} onClose={() => setCreating(false)} />
    </AdminPage>
  );
}
