import { ArrowLeft, ArrowRight, Camera, LoaderCircle, Star, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { EXTRA_PHOTOS_MAX } from '../../../../shared/constants';
import { type OwnProfile, PHOTO_FORMATS } from '../../../../shared/profile-texts';
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
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../components/ui/toast';
import { useAuth } from '../../../lib/auth';
import { usePhotoActions } from '../api';

/**
 * Profile picture and up to 6 more photos. Every action saves at once: add, remove, move
 * earlier or later, and "Make main photo" (it becomes the profile picture).
 */
export function PhotosSection({ profile }: { profile: OwnProfile }) {
  const toast = useToast();
  const auth = useAuth();
  const actions = usePhotoActions();
  const avatarInput = useRef<HTMLInputElement>(null);
  const photosInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [uploading, setUploading] = useState(0);
  const photos = profile.photos;
  const slots = EXTRA_PHOTOS_MAX - photos.length;

  const run = async (
    key: string,
    work: () => Promise<unknown>,
    ok: { title: string; description?: string },
    fail: { title: string; fallback: string },
  ) => {
    setBusy(key);
    try {
      await work();
      toast(ok);
      return true;
    } catch (err) {
      toast({ title: fail.title, description: (err as Error).message || fail.fallback, variant: 'destructive' });
      return false;
    } finally {
      setBusy(null);
    }
  };

  const withinLimit = useWithinUploadLimit();

  const onAvatar = async (picked: File[]) => {
    const [file] = withinLimit(picked.slice(0, 1));
    if (!file) return;
    const done = await run(
      'avatar',
      () => actions.uploadAvatar(file),
      { title: 'Profile picture updated' },
      { title: 'Upload failed', fallback: AVATAR_FAILED },
    );
    if (done) void auth.refresh();
  };

  const onPhotos = async (picked: File[]) => {
    const files = withinLimit(picked).slice(0, Math.max(0, slots));
    if (!files.length) return;
    setUploading(files.length);
    try {
      const res = await actions.uploadPhotos(files);
      toast({ title: res.added === 1 ? 'Photo added' : `${res.added} photos added` });
    } catch (err) {
      toast({ title: 'Upload failed', description: (err as Error).message || PHOTOS_FAILED, variant: 'destructive' });
    } finally {
      setUploading(0);
    }
  };

  const move = (index: number, by: -1 | 1) => {
    const order = photos.map((p) => p.key);
    const [item] = order.splice(index, 1);
    order.splice(index + by, 0, item);
    void run(
      photos[index].key,
      () => actions.reorder(order),
      { title: 'Photos reordered', description: `Photo ${index + 1} is now number ${index + 1 + by}.` },
      { title: "Couldn't move the photo", fallback: 'Please try again.' },
    );
  };

  return (
    <Card id="photos" role="region" aria-labelledby="photos-title" className="scroll-mt-24 p-4 sm:p-6">
      <h2 id="photos-title" className="font-display text-lg font-bold">
        Photos
      </h2>
      <p className="mt-0.5 text-sm text-muted-foreground">
        Your profile picture plus up to {EXTRA_PHOTOS_MAX} more. {PHOTO_FORMATS}, up to 5 MB each.
      </p>

      <div className="mt-4 flex flex-col items-center gap-4 sm:flex-row">
        <AvatarPreview url={profile.avatar?.thumbUrl} alt="You, as other members see you" busy={busy === 'avatar'} className="size-28" />
        <div className="flex flex-wrap justify-center gap-2 sm:justify-start">
          <ImageFileInput inputRef={avatarInput} label="Profile picture file" onFiles={(f) => void onAvatar(f)} />
          <Button
            size="sm"
            variant={profile.avatar ? 'outline' : 'default'}
            disabled={busy !== null}
            onClick={() => avatarInput.current?.click()}
          >
            <Camera aria-hidden />
            {busy === 'avatar' ? 'Uploading...' : profile.avatar ? 'Change profile picture' : 'Upload profile picture'}
          </Button>
          {profile.avatar && (
            <Button
              size="sm"
              variant="ghost"
              disabled={busy !== null}
              onClick={async () => {
                const done = await run(
                  'avatar',
                  actions.removeAvatar,
                  { title: 'Profile picture removed' },
                  { title: 'Error', fallback: REMOVE_FAILED },
                );
                if (done) void auth.refresh();
              }}
            >
              <Trash2 aria-hidden />
              Remove
            </Button>
          )}
        </div>
      </div>

      <div className="mt-6 flex items-baseline justify-between gap-3">
        <h3 className="font-semibold">More photos</h3>
        <p className="text-sm tabular-nums text-muted-foreground">
          {photos.length}/{EXTRA_PHOTOS_MAX}
        </p>
      </div>
      <ImageFileInput inputRef={photosInput} label="Other photo files" multiple onFiles={(f) => void onPhotos(f)} />
      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {photos.map((p, i) => {
          const n = i + 1;
          const working = busy === p.key;
          return (
            <li key={p.key} className="overflow-hidden rounded-2xl border border-border bg-card">
              <div className="relative aspect-square bg-muted">
                <img src={p.thumbUrl} alt={`Your upload ${n} of ${photos.length}`} className="size-full object-cover" />
                {working && (
                  <span className="absolute inset-0 flex items-center justify-center bg-background/60">
                    <LoaderCircle className="size-6 animate-spin text-primary" aria-hidden />
                  </span>
                )}
              </div>
              <div className="flex items-center justify-between gap-1 p-1.5">
                <div className="flex">
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-9"
                    disabled={i === 0 || busy !== null}
                    aria-label={`Move photo ${n} earlier`}
                    onClick={() => move(i, -1)}
                  >
                    <ArrowLeft aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-9"
                    disabled={i === photos.length - 1 || busy !== null}
                    aria-label={`Move photo ${n} later`}
                    onClick={() => move(i, 1)}
                  >
                    <ArrowRight aria-hidden />
                  </Button>
                </div>
                <div className="flex">
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-9"
                    disabled={busy !== null}
                    aria-label={`Make photo ${n} your main photo`}
                    title="Make main photo"
                    onClick={async () => {
                      const done = await run(
                        p.key,
                        () => actions.makeMain(p.key),
                        { title: 'Main photo changed', description: 'It is your profile picture now.' },
                        { title: "Couldn't change your main photo", fallback: 'Please try again.' },
                      );
                      if (done) void auth.refresh();
                    }}
                  >
                    <Star aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-9 text-destructive"
                    disabled={busy !== null}
                    aria-label={`Remove photo ${n}`}
                    onClick={() =>
                      void run(
                        p.key,
                        () => actions.removePhoto(p.key),
                        { title: 'Photo removed' },
                        { title: 'Error', fallback: REMOVE_FAILED },
                      )
                    }
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              </div>
            </li>
          );
        })}
        <UploadingTiles count={uploading} />
        <AddPhotosTile slots={slots} uploading={uploading} onClick={() => photosInput.current?.click()} className="min-h-36" />
      </ul>
      <PhotoLimitNote slots={slots} />
    </Card>
  );
}
