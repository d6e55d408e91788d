import { EyeOff, MapPin, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { CityPicker } from '../../../components/ui/city-picker';
import { EditableSection, Empty } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import type { SectionProps } from './types';

export function LocationSection({ profile, onPreview, shareCity }: SectionProps & { shareCity: boolean | undefined }) {
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ cityRegion: p.cityRegion ?? '' }),
    toInput: (v) => ({ cityRegion: v.cityRegion }),
    savedMessage: 'Your city is saved.',
    onPreview,
  });
  return (
    <EditableSection
      id="location"
      title="City"
      editing={ed.editing}
      saving={ed.saving}
      onEdit={ed.start}
      onCancel={ed.cancel}
      onSave={() => void ed.save()}
      view={
        <div className="grid gap-2 text-sm">
          {profile.cityRegion ? (
            <p className="flex min-w-0 items-center gap-1.5 font-medium">
              <MapPin className="size-4 shrink-0 text-primary" aria-hidden />
              {profile.cityRegion}
            </p>
          ) : (
            <Empty>No city added</Empty>
          )}
          {shareCity === false && profile.cityRegion && (
            <p className="flex items-center gap-1.5 text-muted-foreground">
              <EyeOff className="size-4" aria-hidden />
              Hidden from other members.{' '}
              <Link to="/settings#privacy" className="font-medium text-primary underline-offset-4 hover:underline">
                Change in Settings
              </Link>
            </p>
          )}
        </div>
      }
    >
      <CityPicker value={ed.value.cityRegion} onChange={(cityRegion) => ed.set({ cityRegion })} />
      {ed.errors.cityRegion && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {ed.errors.cityRegion}
        </p>
      )}
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
        We only store your city, never your precise location.
      </p>
    </EditableSection>
  );
}
