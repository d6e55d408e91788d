import { Camera, ImagePlus, LoaderCircle } from 'lucide-react';
import type { RefObject } from 'react';
import { EXTRA_PHOTOS_MAX, UPLOAD_MAX_BYTES } from '../../../shared/constants';
import { fileTooLargeMessage, PHOTO_ACCEPT } from '../../../shared/profile-texts';
import { cn } from '../../lib/cn';
import { useToast } from '../ui/toast';

/** The pieces the onboarding photos step and the profile's photos section share. */

export const AVATAR_FAILED = 'Failed to upload avatar. Please try again.';
export const PHOTOS_FAILED = 'Failed to upload photos. Please try again.';
export const REMOVE_FAILED = 'Failed to remove photo. Please try again.';

/** Keeps the files within 5 MB; each one refused is named in a toast (spec §5). */
export function useWithinUploadLimit() {
  const toast = useToast();
  return (files: File[]) =>
    files.filter((f) => {
      if (f.size <= UPLOAD_MAX_BYTES) return true;
      toast({ title: 'Upload failed', description: fileTooLargeMessage(f.name), variant: 'destructive' });
      return false;
    });
}

/** The round profile picture (or a camera placeholder), dimmed with a spinner while uploading. */
export function AvatarPreview({ url, alt, busy, className }: { url?: string; alt: string; busy: boolean; className?: string }) {
  return (
    <div className={cn('relative shrink-0 overflow-hidden rounded-full bg-muted ring-4 ring-accent', className)}>
      {url ? (
        <img src={url} alt={alt} className="size-full object-cover" />
      ) : (
        <span className="flex size-full items-center justify-center text-muted-foreground">
          <Camera className="size-1/3" aria-hidden />
        </span>
      )}
      {busy && (
        <span className="absolute inset-0 flex items-center justify-center bg-background/70">
          <LoaderCircle className="size-1/4 animate-spin text-primary" aria-hidden />
          <span className="sr-only">Uploading</span>
        </span>
      )}
    </div>
  );
}

/** A hidden file input opened by our own buttons; it is emptied after each pick so the same file can be picked again. */
export function ImageFileInput({
  inputRef,
  label,
  multiple = false,
  onFiles,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  label: string;
  multiple?: boolean;
  onFiles: (files: File[]) => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={PHOTO_ACCEPT}
      multiple={multiple}
      className="sr-only"
      tabIndex={-1}
      aria-label={label}
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        e.target.value = '';
        onFiles(files);
      }}
    />
  );
}

/** Grid cells shown while photos upload, one per file. */
export function UploadingTiles({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    <li key={`uploading-${i}`} className="flex aspect-square items-center justify-center rounded-2xl bg-muted">
      <LoaderCircle className="size-6 animate-spin text-primary" aria-hidden />
      <span className="sr-only">Uploading</span>
    </li>
  ));
}

/** The last grid cell: "Add photos" while there is room, or the note about the maximum. */
export function AddPhotosTile({
  slots,
  uploading,
  onClick,
  className,
}: {
  slots: number;
  uploading: number;
  onClick: () => void;
  className?: string;
}) {
  if (slots - uploading <= 0) return null;
  return (
    <li className={className}>
      <button
        type="button"
        onClick={onClick}
        disabled={uploading > 0}
        className={cn(
          'flex size-full flex-col items-center justify-center gap-1.5 rounded-2xl border-2 border-dashed border-border text-sm font-semibold text-muted-foreground transition-colors hover:border-primary/50 hover:bg-accent/40 hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-50',
          className,
        )}
      >
        <ImagePlus className="size-6" aria-hidden />
        Add photos
      </button>
    </li>
  );
}

export function PhotoLimitNote({ slots }: { slots: number }) {
  if (slots > 0) return null;
  return <p className="mt-3 text-sm text-muted-foreground">That's the maximum of {EXTRA_PHOTOS_MAX} — remove one to add another.</p>;
}
