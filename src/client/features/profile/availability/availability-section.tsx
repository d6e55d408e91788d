import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { describeAvailability } from '../../../../shared/availability';
import type { OwnProfile } from '../../../../shared/profile-texts';
import { useToast } from '../../../components/ui/toast';
import { EditableSection } from '../components/editable-section';
import { Tags } from '../../../components/ui/tags';
import { saveErrorMessage, useAvailability, useSaveAvailability } from './api';
import { AvailabilityEditor, type AvailabilityValue } from './availability-editor';
import { ReliabilityNote } from './reliability-note';
import { LoadError } from '../../../components/ui/load-error';

/** Profile → "When you're free": the weekly grid and topic asks (issue 14), always editable, and my reliability note. */
export function AvailabilitySection({ profile }: { profile: OwnProfile }) {
  const toast = useToast();
  const query = useAvailability();
  const save = useSaveAvailability();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<AvailabilityValue>({ availability: [], topicAsks: [] });
  const [error, setError] = useState<string | null>(null);

  const start = () => {
    setValue({ availability: query.data?.availability ?? [], topicAsks: query.data?.topicAsks ?? [] });
    setError(null);
    setEditing(true);
  };
  const onSave = async () => {
    try {
      await save.mutateAsync(value);
      setEditing(false);
      toast({ title: 'Profile updated', description: "We'll form mixers around the times you picked." });
    } catch (err) {
      const message = saveErrorMessage(err);
      setError(message);
      toast({ title: "Couldn't save your changes", description: message, variant: 'destructive' });
    }
  };

  const view = query.isPending ? (
    <div className="grid gap-2" aria-busy="true">
      <span className="sr-only" role="status">
        Loading your times
      </span>
      <div className="h-5 w-2/3 animate-pulse rounded bg-muted" />
      <div className="h-8 w-1/2 animate-pulse rounded-full bg-muted" />
    </div>
  ) : query.isError ? (
    <LoadError bare small title="We couldn't load your times just now." onRetry={query.refetch} />
  ) : (
    <div className="grid gap-3">
      <p className="flex items-start gap-2 text-sm">
        <CalendarClock className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        {query.data.availability.length ? (
          <span className="font-medium" data-testid="availability-summary">
            {describeAvailability(query.data.availability)}
          </span>
        ) : (
          <span className="italic text-muted-foreground">No times yet — add some and we'll form mixers around you.</span>
        )}
      </p>
      <div>
        <h3 className="mb-1.5 text-xs font-bold tracking-wider text-muted-foreground uppercase">I'd join one about</h3>
        <Tags items={query.data.topicAsks} tone="accent" empty="No topics yet" />
      </div>
      <ReliabilityNote />
    </div>
  );

  return (
    <EditableSection
      id="availability"
      title="When you're free"
      description="We form small mixers at times that suit you, about topics you'd join."
      editing={editing}
      saving={save.isPending}
      onEdit={query.isSuccess ? start : undefined}
      onCancel={() => {
        setEditing(false);
        setError(null);
      }}
      onSave={() => void onSave()}
      view={view}
    >
      <AvailabilityEditor
        value={value}
        onChange={(v) => {
          setValue(v);
          setError(null);
        }}
        myInterests={profile.interests}
        idPrefix="profile-availability"
        error={error}
      />
    </EditableSection>
  );
}
