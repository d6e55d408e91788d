import { useQuery } from '@tanstack/react-query';
import { Check, History, Lightbulb, X } from 'lucide-react';
import { useId, useState } from 'react';
import { INTEREST_CATEGORIES, type InterestCategory } from '../../../../shared/reference/catalog';
import type { SuggestionGroup } from '../../../../shared/schemas/admin';
import { Button } from '../../../components/ui/button';
import { describedBy, Field, Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { adminApi, adminKeys, useAdminMutation } from '../api';
import { AdminPage, Section } from '../components/admin-page';
import { AdminDialog, DialogFooter, ReasonDialog, showSaveError } from '../components/dialog';
import { EmptyState, ListStates } from '../components/states';
import { Pill, Table, Td, Th } from '../components/table';
import { age, fmtDateTime, plural } from '../format';

const selectClass =
  'h-11 w-full rounded-xl border border-input bg-card px-3 text-base text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive md:text-sm';

function ApproveDialog({ group, onClose }: { group: SuggestionGroup | null; onClose: () => void }) {
  const id = useId();
  const toast = useToast();
  const [name, setName] = useState('');
  const [category, setCategory] = useState<InterestCategory | ''>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [lastKey, setLastKey] = useState<string | null>(null);
  if (group && group.key !== lastKey) {
    setLastKey(group.key);
    setName(group.text);
    setCategory('');
    setErrors({});
  }
  const approve = useAdminMutation(adminApi.approve, [['catalog']]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!group) return;
    const next: Record<string, string> = {};
    if (!name.trim()) next.name = 'Please enter the interest as it should appear';
    if (!category) next.category = 'Please choose a category';
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      const result = await approve.mutateAsync({ text: group.text, name: name.trim(), category: category as InterestCategory });
      toast({
        title: result.added ? 'Interest added' : 'Already in the catalogue',
        description: result.added
          ? `"${result.name}" is now in ${result.category}. ${plural(result.approved, 'suggestion')} approved.`
          : `"${result.name}" was already there, in ${result.category}. ${plural(result.approved, 'suggestion')} marked approved.`,
      });
      onClose();
    } catch (err) {
      showSaveError(err, setErrors, toast, 'Could not approve');
    }
  };

  return (
    <AdminDialog
      open={Boolean(group)}
      onOpenChange={(o) => !o && !approve.isPending && onClose()}
      title="Approve suggestion"
      description={
        group
          ? `Adds it to the interest list members pick from, and marks all ${plural(group.count, 'suggestion')} of "${group.text}" approved.`
          : undefined
      }
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        <Field id={`${id}-name`} label="Name in the interest list" error={errors.name} hint="Tidy the spelling and capitals if needed.">
          <Input
            id={`${id}-name`}
            value={name}
            maxLength={50}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={describedBy(`${id}-name`, errors.name, true)}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id={`${id}-category`} label="Category" error={errors.category}>
          <select
            id={`${id}-category`}
            className={selectClass}
            value={category}
            aria-invalid={Boolean(errors.category)}
            aria-describedby={errors.category ? `${id}-category-error` : undefined}
            onChange={(e) => setCategory(e.target.value as InterestCategory)}
          >
            <option value="">Choose a category…</option>
            {INTEREST_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        {group?.inCatalogue && (
          <p className="rounded-xl bg-muted px-3 py-2 text-sm text-muted-foreground">
            This interest is already in the list. Approving marks the suggestions as done without adding it twice.
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={approve.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={approve.isPending}>
            <Check aria-hidden /> {approve.isPending ? 'Approving…' : 'Approve and add'}
          </Button>
        </DialogFooter>
      </form>
    </AdminDialog>
  );
}

function Suggesters({ group }: { group: SuggestionGroup }) {
  const shown = group.suggesters.slice(0, 3);
  const rest = group.suggesters.length - shown.length;
  return (
    <ul className="grid gap-0.5">
      {shown.map((s, i) => (
        <li key={`${s.userId}-${i}`} className="whitespace-nowrap">
          {s.name} <span className="text-xs text-muted-foreground">· {fmtDateTime(s.createdAt)}</span>
        </li>
      ))}
      {rest > 0 && (
        <li
          className="text-xs text-muted-foreground"
          title={group.suggesters
            .slice(3)
            .map((s) => s.name)
            .join(', ')}
        >
          and {plural(rest, 'more suggestion')}
        </li>
      )}
    </ul>
  );
}

/** Approve / Reject for one suggestion (under its text on phones, in its own column from md up). */
function DecisionButtons({ text, onApprove, onReject }: { text: string; onApprove: () => void; onReject: () => void }) {
  return (
    <>
      <Button size="sm" onClick={onApprove} aria-label={`Approve ${text}`}>
        <Check aria-hidden /> Approve
      </Button>
      <Button size="sm" variant="outline" onClick={onReject} aria-label={`Reject ${text}`}>
        <X aria-hidden /> Reject
      </Button>
    </>
  );
}

export default function InterestSuggestionsPage() {
  const toast = useToast();
  const q = useQuery({ queryKey: adminKeys.suggestions, queryFn: adminApi.suggestions });
  const [approving, setApproving] = useState<SuggestionGroup | null>(null);
  const [rejecting, setRejecting] = useState<SuggestionGroup | null>(null);
  const reject = useAdminMutation(adminApi.reject);
  const pending = q.data?.pending ?? [];
  const history = q.data?.history ?? [];

  return (
    <AdminPage
      title="Interest suggestions"
      description="Interests members asked for in the wizard's “+ Other” dialog, grouped regardless of capitals and spacing. Approve to add one to the interest list, or reject it."
    >
      <div className="grid gap-6">
        <Section
          title="Waiting for a decision"
          description={
            q.data
              ? `${plural(pending.length, 'interest')} from ${plural(
                  pending.reduce((s, g) => s + g.count, 0),
                  'suggestion',
                )}`
              : undefined
          }
          id="pending-suggestions"
        >
          <ListStates
            query={q}
            loading="Loading suggestions"
            isEmpty={pending.length === 0}
            empty={
              <EmptyState
                icon={Lightbulb}
                title="No suggestions waiting — nice."
                text="New suggestions from the onboarding wizard will show up here."
              />
            }
          >
            <Table caption="Pending interest suggestions">
              <thead>
                <tr>
                  <Th>Suggestion</Th>
                  <Th className="text-right">Count</Th>
                  <Th>Suggested by</Th>
                  <Th>Latest</Th>
                  <Th className="hidden text-right md:table-cell">Decision</Th>
                </tr>
              </thead>
              <tbody>
                {pending.map((g) => (
                  <tr key={g.key} data-testid="suggestion-row">
                    <Td className="min-w-40">
                      <span className="font-semibold">{g.text}</span>
                      {g.inCatalogue && (
                        <Pill tone="success" className="ml-2">
                          In the list
                        </Pill>
                      )}
                      <div className="mt-2 flex gap-2 md:hidden">
                        <DecisionButtons text={g.text} onApprove={() => setApproving(g)} onReject={() => setRejecting(g)} />
                      </div>
                    </Td>
                    <Td className="whitespace-nowrap text-right tabular-nums">
                      <span className="font-semibold">{g.count}</span>
                      {g.members !== g.count && <span className="block text-xs text-muted-foreground">{plural(g.members, 'member')}</span>}
                    </Td>
                    <Td className="min-w-56">
                      <Suggesters group={g} />
                    </Td>
                    <Td className="whitespace-nowrap text-muted-foreground">
                      <time dateTime={g.lastAt} title={fmtDateTime(g.lastAt)}>
                        {age(g.lastAt)} ago
                      </time>
                    </Td>
                    <Td className="hidden text-right md:table-cell">
                      <div className="flex justify-end gap-2">
                        <DecisionButtons text={g.text} onApprove={() => setApproving(g)} onReject={() => setRejecting(g)} />
                      </div>
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ListStates>
        </Section>

        <Section title="Decision history" description="The latest 50 decisions." id="suggestion-history">
          <ListStates
            query={q}
            loading="Loading history"
            rows={3}
            quietError
            isEmpty={history.length === 0}
            empty={<EmptyState icon={History} title="No decisions yet" />}
          >
            <Table caption="Decision history">
              <thead>
                <tr>
                  <Th>When</Th>
                  <Th>Decision</Th>
                  <Th>Suggestion</Th>
                  <Th>Added as</Th>
                  <Th className="text-right">Count</Th>
                  <Th>By</Th>
                  <Th>Note</Th>
                </tr>
              </thead>
              <tbody>
                {history.map((h) => (
                  <tr key={h.id}>
                    <Td className="whitespace-nowrap text-muted-foreground">{fmtDateTime(h.decidedAt)}</Td>
                    <Td>
                      <Pill tone={h.decision === 'approved' ? 'success' : 'muted'}>
                        {h.decision === 'approved' ? 'Approved' : 'Rejected'}
                      </Pill>
                    </Td>
                    <Td className="whitespace-nowrap font-medium">{h.text}</Td>
                    <Td className="whitespace-nowrap">{h.name ? `${h.name} · ${h.category ?? ''}` : '—'}</Td>
                    <Td className="text-right tabular-nums">{h.count}</Td>
                    <Td className="whitespace-nowrap">{h.decidedBy ?? '—'}</Td>
                    <Td className="min-w-40 text-muted-foreground">{h.note ?? ''}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ListStates>
        </Section>
      </div>

      <ApproveDialog group={approving} onClose={() => setApproving(null)} />
      <ReasonDialog
        open={Boolean(rejecting)}
        onOpenChange={(o) => !o && setRejecting(null)}
        title="Reject suggestion"
        description={
          rejecting
            ? `All ${plural(rejecting.count, 'suggestion')} of "${rejecting.text}" will be marked rejected. Members are not told.`
            : undefined
        }
        reasonLabel="Internal note"
        required={false}
        placeholder="Why it doesn't fit (for other admins)"
        confirmLabel="Reject"
        destructive
        onConfirm={async (note) => {
          if (!rejecting) return;
          const text = rejecting.text;
          const result = await reject.mutateAsync({ text, note: note || undefined });
          toast({ title: 'Suggestion rejected', description: `"${text}": ${plural(result.rejected, 'suggestion')} marked rejected.` });
        }}
      />
    </AdminPage>
  );
}
