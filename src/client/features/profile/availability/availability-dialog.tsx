import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { useOwnProfile } from '../api';
import { saveErrorMessage, useSaveAvailability } from './api';
import { AvailabilityEditor, type AvailabilityValue } from './availability-editor';
import { SheetDialog } from '../../../components/ui/sheet-dialog';

/** Home's availability prompt, opened: the same editor as Profile, in a dialog (loaded when the prompt shows). */
export default function AvailabilityDialog({ initial, onOpenChange }: { initial: AvailabilityValue; onOpenChange(open: boolean): void }) {
  const toast = useToast();
  const interests = useOwnProfile().data?.interests ?? [];
  const save = useSaveAvailability();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    try {
      await save.mutateAsync(value);
      onOpenChange(false);
      toast({ title: 'Thanks!', description: "We'll form mixers around the times you picked. Change them any time in Profile." });
    } catch (err) {
      const message = saveErrorMessage(err);
      setError(message);
    }
  };

  return (
    <SheetDialog
      open
      onOpenChange={onOpenChange}
      wide
      title="When you're free"
      description="Pick the times that usually suit you and the topics you'd join. We'll form mixers around you."
    >
      <form
        className="flex min-h-0 flex-1 flex-col"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!save.isPending) void submit();
        }}
      >
        <div className="overflow-y-auto px-5 py-4 sm:px-6">
          <AvailabilityEditor
            value={value}
            onChange={(v) => {
              setValue(v);
              setError(null);
            }}
            myInterests={interests}
            idPrefix="home-availability"
            error={error}
          />
        </div>
        <div className="flex flex-col-reverse gap-2 border-t border-border px-5 py-3 sm:flex-row sm:justify-end sm:px-6">
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending || (value.availability.length === 0 && value.topicAsks.length === 0)}>
            {save.isPending ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </form>
    </SheetDialog>
  );
}
