import type { MixerSummary } from '../../../../shared/mixer-facts';
import { Avatar } from '../../../components/ui/avatar';

/**
 * Up to four faces, overlapping, with "+N" for the rest. Decorative: the count is read out beside
 * it, so with no face to show (profiles shown only to people in the mixer) nothing is drawn.
 */
export function AvatarStack({ preview, total }: { preview: MixerSummary['preview']; total: number }) {
  if (preview.length === 0) return null;
  const extra = Math.max(0, total - preview.length);
  return (
    <span className="flex items-center" aria-hidden>
      {preview.map((p, i) => (
        <Avatar
          key={p.id}
          name={p.firstName}
          src={p.avatarUrl}
          className={i ? '-ml-2.5 size-8 ring-2 ring-card' : 'size-8 ring-2 ring-card'}
        />
      ))}
      {extra > 0 && (
        <span className="-ml-2.5 flex size-8 items-center justify-center rounded-full bg-muted text-[11px] font-bold text-muted-foreground ring-2 ring-card">
          +{extra}
        </span>
      )}
    </span>
  );
}
