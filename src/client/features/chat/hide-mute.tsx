import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeOff, VolumeX } from 'lucide-react';
import { type ReactNode, useCallback, useState } from 'react';
import type { LineKind, LinePrivacy } from '../../../shared/schemas/line-privacy';
import { useToast } from '../../components/ui/toast';
import { api, ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';

/**
 * Hide a line and mute a member in a mixer, for yourself only (issue 30). The server keeps the
 * member's choices (`GET /api/line-privacy`); this file reads them, and `collapsedReason`
 * (collapsed.ts) collapses those lines, in history and in live events alike, since both render
 * from the same list.
 */

/** A mixer (`mixerId`) or a private conversation (`matchId`). */
export type LineRoom = { mixerId: string } | { matchId: string };

const kindOf = (room: LineRoom): LineKind => ('mixerId' in room ? 'mixer' : 'dm');
const roomParam = (room: LineRoom) => ('mixerId' in room ? `mixerId=${room.mixerId}` : `matchId=${room.matchId}`);

export const linePrivacyKey = (room: LineRoom) => ['line-privacy', roomParam(room)] as const;

const EMPTY: LinePrivacy = { hiddenLineIds: [], mutedMemberIds: [] };

/** What I hid in this room and whom I muted (mixers). Empty while loading or on error: nothing is ever hidden by mistake. */
export function useLinePrivacy(room: LineRoom, enabled = true): LinePrivacy {
  const q = useQuery({
    queryKey: linePrivacyKey(room),
    queryFn: ({ signal }) => api<LinePrivacy>(`/api/line-privacy?${roomParam(room)}`, { signal }),
    enabled,
    staleTime: 60_000,
  });
  return q.data ?? EMPTY;
}

function useOptimistic(room: LineRoom) {
  const qc = useQueryClient();
  const key = linePrivacyKey(room);
  return {
    change: async (update: (p: LinePrivacy) => LinePrivacy) => {
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<LinePrivacy>(key);
      qc.setQueryData<LinePrivacy>(key, update(before ?? EMPTY));
      return before;
    },
    restore: (before: LinePrivacy | undefined) => qc.setQueryData(key, before),
    settle: () => void qc.invalidateQueries({ queryKey: key }),
  };
}

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : 'Please try again.');

/**
 * `hide(lineId)` / `show(lineId)` for a line of this room, for me only. The line collapses at
 * once (optimistic) and comes back if the server refuses. For the line menu.
 */
export function useHideLine(room: LineRoom) {
  const toast = useToast();
  const o = useOptimistic(room);
  const kind = kindOf(room);
  const mutation = useMutation({
    mutationFn: ({ lineId, hidden }: { lineId: string; hidden: boolean }) =>
      api(`/api/hidden-lines/${kind}/${lineId}`, { method: hidden ? 'PUT' : 'DELETE' }),
    onMutate: ({ lineId, hidden }) =>
      o.change((p) => ({
        ...p,
        hiddenLineIds: hidden ? [...p.hiddenLineIds.filter((id) => id !== lineId), lineId] : p.hiddenLineIds.filter((id) => id !== lineId),
      })),
    onError: (err, _v, before) => {
      o.restore(before);
      toast({ variant: 'destructive', title: 'Could not change that line', description: errorText(err) });
    },
    onSettled: o.settle,
  });
  const { mutate } = mutation;
  // Stable, so memoised lines that receive them do not re-render.
  const hide = useCallback((lineId: string) => mutate({ lineId, hidden: true }), [mutate]);
  const show = useCallback((lineId: string) => mutate({ lineId, hidden: false }), [mutate]);
  return { hide, show, busy: mutation.isPending };
}

/** `mute(userId)` / `unmute(userId)` in this mixer, for me only: their lines collapse to "Muted — show". */
export function useMuteMember(mixerId: string) {
  const toast = useToast();
  const o = useOptimistic({ mixerId });
  const mutation = useMutation({
    mutationFn: ({ userId, muted }: { userId: string; muted: boolean; name?: string }) =>
      api(`/api/mixers/${mixerId}/mutes/${userId}`, { method: muted ? 'PUT' : 'DELETE' }),
    onMutate: ({ userId, muted }) =>
      o.change((p) => ({
        ...p,
        mutedMemberIds: muted
          ? [...p.mutedMemberIds.filter((id) => id !== userId), userId]
          : p.mutedMemberIds.filter((id) => id !== userId),
      })),
    onSuccess: (_d, { muted, name }) => {
      if (name)
        toast({
          title: muted ? `${name} is muted for you` : `${name} is unmuted`,
          description: muted ? 'Their lines in this mixer are collapsed. Only you can tell.' : undefined,
        });
    },
    onError: (err, _v, before) => {
      o.restore(before);
      toast({ variant: 'destructive', title: 'Could not change that', description: errorText(err) });
    },
    onSettled: o.settle,
  });
  const { mutate } = mutation;
  const mute = useCallback((userId: string, name?: string) => mutate({ userId, muted: true, name }), [mutate]);
  const unmute = useCallback((userId: string, name?: string) => mutate({ userId, muted: false, name }), [mutate]);
  return { mute, unmute, busy: mutation.isPending };
}

/**
 * A collapsed line: "Muted — show" or "Hidden by you — show". Showing reveals it here for now
 * (the choice stays: the next visit collapses it again); a hidden line also offers "Unhide".
 * `children` is the line as it normally renders.
 */
export function CollapsedLine({
  reason,
  name,
  onUnhide,
  children,
  className,
  inset = true,
}: {
  reason: 'hidden' | 'muted';
  name: string;
  onUnhide?: () => void;
  children: ReactNode;
  className?: string;
  /** Indent under the avatar column (mixer chat); false where lines have no avatar (private chat). */
  inset?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const Icon = reason === 'muted' ? VolumeX : EyeOff;
  const label = reason === 'muted' ? 'Muted' : 'Hidden by you';
  if (open) {
    return (
      <div className={className} data-testid={`${reason}-line-open`}>
        {children}
        <div className={cn('mt-0.5 flex gap-3 text-xs text-muted-foreground', inset && 'pl-10')}>
          <button
            type="button"
            className="underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => setOpen(false)}
          >
            Collapse
          </button>
          {reason === 'hidden' && onUnhide && (
            <button
              type="button"
              className="underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              onClick={onUnhide}
            >
              Unhide
            </button>
          )}
        </div>
      </div>
    );
  }
  return (
    <div className={className} data-testid={`${reason}-line`}>
      <p
        className={cn(
          'inline-flex items-center gap-1.5 rounded-2xl border border-dashed border-border px-3 py-1.5 text-sm text-muted-foreground',
          inset && 'ml-10',
        )}
      >
        <Icon className="size-3.5 shrink-0" aria-hidden />
        <span>
          {label} —{' '}
          <button
            type="button"
            onClick={() => setOpen(true)}
            aria-label={`Show ${name}'s line`}
            className="font-semibold text-foreground underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            show
          </button>
        </span>
      </p>
    </div>
  );
}

/** @alias CollapsedLine for a muted member's line */
export const MutedLine = (p: Omit<Parameters<typeof CollapsedLine>[0], 'reason'>) => <CollapsedLine reason="muted" {...p} />;
/** @alias CollapsedLine for a line hidden by me */
export const HiddenLine = (p: Omit<Parameters<typeof CollapsedLine>[0], 'reason'>) => <CollapsedLine reason="hidden" {...p} />;
