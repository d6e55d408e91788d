import { Camera, LoaderCircle, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { EXTRA_PHOTOS_MAX, PROMPT_MAX, PROMPT_MIN } from '../../../../shared/constants';
import { promptStatus, promptsReady } from '../../../../shared/onboarding';
import { PHOTO_FORMATS, type PhotoRef, PROMPTS, type PromptField } from '../../../../shared/profile-texts';
import {
  AddPhotosTile,
  AVATAR_FAILED,
  AvatarPreview,
  ImageFileInput,
  PHOTOS_FAILED,
  PhotoLimitNote,
  REMOVE_FAILED,
  UploadingTiles,
  useWithinUploadLimit,
} from '../../../components/photos/photo-pieces';
import { Button } from '../../../components/ui/button';
import { Label, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { removePhoto, uploadAvatar, uploadPhotos } from '../api';
import { StepFrame } from '../components/step-frame';
import type { StepProps } from './types';

/** In the preview nothing is uploaded: pictures stay in the browser. */
function localRef(file: File, prefix: string): PhotoRef {
  const url = URL.createObjectURL(file);
  return { key: `${prefix}/${crypto.randomUUID()}`, url, thumbUrl: url };
}

function PromptInput({
  field,
  label,
  placeholder,
  value,
  onChange,
}: {
  field: PromptField;
  label: string;
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const id = `prompt-${field}`;
  const s = promptStatus(value);
  const bad = s.length > 0 && !s.ok;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className="text-base font-semibold">
        {label}
      </Label>
      <Textarea
        id={id}
        rows={3}
        maxLength={PROMPT_MAX}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value.slice(0, PROMPT_MAX))}
        aria-describedby={`${id}-count`}
        aria-invalid={bad}
        className="min-h-24 resize-y"
      />
      <p
        id={`${id}-count`}
        className={cn(
          'text-right text-xs font-medium tabular-nums',
          s.ok ? 'text-success' : s.length === 0 ? 'text-muted-foreground' : 'text-destructive',
        )}
      >
        {s.length}/{PROMPT_MAX}
        {s.tooShort && <span className="ml-1">(min {PROMPT_MIN})</span>}
      </p>
    </div>
  );
}

/** Step 9 (spec §2, §5): profile picture, up to 6 more photos, and the four prompts (60-200). */
export function PhotosStep({ draft, update, back, next, preview, photos, setPhotoRefs }: StepProps) {
  const toast = useToast();
  const id = useId();
  const avatarInput = useRef<HTMLInputElement>(null);
  const photosInput = useRef<HTMLInputElement>(null);
  const [avatarBusy, setAvatarBusy] = useState(false);
  const [photosBusy, setPhotosBusy] = useState(0);
  const [removing, setRemoving] = useState<string | null>(null);
  const avatar = draft.avatarKey ? photos[draft.avatarKey] : undefined;
  const slots = EXTRA_PHOTOS_MAX - draft.photoKeys.length;

  const withinLimit = useWithinUploadLimit();

  const onAvatar = async (picked: File[]) => {
    const [file] = withinLimit(picked.slice(0, 1));
    if (!file) return;
    setAvatarBusy(true);
    try {
      const ref = preview ? localRef(file, 'preview-avatar') : (await uploadAvatar(file)).avatar;
      setPhotoRefs([ref]);
      update({ avatarKey: ref.key });
    } catch (err) {
      toast({ title: 'Upload failed', description: (err as Error).message || AVATAR_FAILED, variant: 'destructive' });
    } finally {
      setAvatarBusy(false);
    }
  };

  const onPhotos = async (picked: File[]) => {
    // Extras beyond the free slots are dropped (spec §5).
    const files = withinLimit(picked).slice(0, Math.max(0, slots));
    if (!files.length) return;
    setPhotosBusy(files.length);
    try {
      if (preview) {
        const refs = files.map((f) => localRef(f, 'preview-photo'));
        setPhotoRefs(refs);
        update((d) => ({ photoKeys: [...d.photoKeys, ...refs.map((r) => r.key)].slice(0, EXTRA_PHOTOS_MAX) }));
      } else {
        const res = await uploadPhotos(files);
        setPhotoRefs(res.photos);
        update({ photoKeys: res.photos.map((p) => p.key) });
      }
    } catch (err) {
      toast({ title: 'Upload failed', description: (err as Error).message || PHOTOS_FAILED, variant: 'destructive' });
    } finally {
      setPhotosBusy(0);
    }
  };

  const onRemove = async (key: string) => {
    setRemoving(key);
    try {
      if (preview) {
        update((d) => ({ photoKeys: d.photoKeys.filter((k) => k !== key) }));
      } else {
        const res = await removePhoto(key);
        setPhotoRefs(res.photos);
        update({ photoKeys: res.photos.map((p) => p.key) });
      }
    } catch {
      toast({ title: 'Error', description: REMOVE_FAILED, variant: 'destructive' });
    } finally {
      setRemoving(null);
    }
  };

  const ready = promptsReady(draft);

  return (
    <StepFrame
      title="Add a little sparkle"
      description="A few photos and your take on four prompts give people something fun to talk to you about."
      actions={{
        onBack: back,
        onContinue: next,
        continueDisabled: !ready,
        hint: ready ? undefined : `Answer all four prompts (${PROMPT_MIN}–${PROMPT_MAX} characters each) to continue.`,
      }}
    >
      <section aria-labelledby={`${id}-pic`} className="rounded-3xl border border-border bg-card p-5 sm:p-6">
        <h2 id={`${id}-pic`} className="text-lg font-bold">
          Profile picture
        </h2>
        <div className="mt-4 flex flex-col items-center gap-5 sm:flex-row">
          <AvatarPreview url={avatar?.thumbUrl} alt="You, as others will see you" busy={avatarBusy} className="size-32" />
          <div className="text-center sm:text-left">
            <p className="text-sm text-muted-foreground">A clear, smiley photo of you works best. {PHOTO_FORMATS}, up to 5 MB each.</p>
            <ImageFileInput inputRef={avatarInput} label="Profile picture file" onFiles={(f) => void onAvatar(f)} />
            <Button
              variant={avatar ? 'outline' : 'default'}
              className="mt-3"
              disabled={avatarBusy}
              onClick={() => avatarInput.current?.click()}
            >
              <Camera aria-hidden />
              {avatarBusy ? 'Uploading...' : avatar ? 'Change profile picture' : 'Upload profile picture'}
            </Button>
          </div>
        </div>
      </section>

      <section aria-labelledby={`${id}-more`} className="mt-5 rounded-3xl border border-border bg-card p-5 sm:p-6">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id={`${id}-more`} className="text-lg font-bold">
            More photos <span className="text-sm font-medium text-muted-foreground">(optional)</span>
          </h2>
          <p className="text-sm tabular-nums text-muted-foreground">
            {draft.photoKeys.length}/{EXTRA_PHOTOS_MAX}
          </p>
        </div>
        <ImageFileInput inputRef={photosInput} label="Other photo files" multiple onFiles={(f) => void onPhotos(f)} />
        <ul className="mt-4 grid grid-cols-3 gap-2.5 sm:gap-3">
          {draft.photoKeys.map((key, i) => {
            const ref = photos[key];
            return (
              <li key={key} className="relative aspect-square overflow-hidden rounded-2xl bg-muted">
                {ref && <img src={ref.thumbUrl} alt={`Upload ${i + 1} of ${draft.photoKeys.length}`} className="size-full object-cover" />}
                <button
                  type="button"
                  onClick={() => void onRemove(key)}
                  disabled={removing === key}
                  aria-label={`Remove photo ${i + 1}`}
                  className="absolute top-1.5 right-1.5 flex size-9 items-center justify-center rounded-full bg-foreground/75 text-background shadow hover:bg-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60"
                >
                  {removing === key ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <X className="size-4" aria-hidden />}
                </button>
              </li>
            );
          })}
          <UploadingTiles count={photosBusy} />
          <AddPhotosTile slots={slots} uploading={photosBusy} onClick={() => photosInput.current?.click()} className="aspect-square" />
        </ul>
        <PhotoLimitNote slots={slots} />
      </section>

      <section aria-labelledby={`${id}-prompts`} className="mt-8">
        <h2 id={`${id}-prompts`} className="font-display text-2xl font-extrabold">
          Four little prompts
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Between {PROMPT_MIN} and {PROMPT_MAX} characters each — a couple of honest sentences is perfect.
        </p>
        <div className="mt-5 grid gap-6">
          {PROMPTS.map((p) => (
            <PromptInput key={p.field} {...p} value={draft[p.field]} onChange={(v) => update({ [p.field]: v })} />
          ))}
        </div>
      </section>
    </StepFrame>
  );
}
