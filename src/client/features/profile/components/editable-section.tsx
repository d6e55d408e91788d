import { Pencil } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/**
 * One section of /profile: its current answer with an Edit button, or, while editing, the
 * fields with Cancel and Save. Focus moves into the fields on Edit and back to Edit after.
 */
export function EditableSection({
  id,
  title,
  description,
  editing,
  saving = false,
  canSave = true,
  onEdit,
  onCancel,
  onSave,
  view,
  children,
  actions,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  editing: boolean;
  saving?: boolean;
  canSave?: boolean;
  onEdit?(): void;
  onCancel?(): void;
  onSave?(): void;
  /** What the section shows when not editing. */
  view: React.ReactNode;
  /** The fields while editing. */
  children?: React.ReactNode;
  /** Replaces the Edit button (sections that save each action at once, like photos). */
  actions?: React.ReactNode;
}) {
  const body = useRef<HTMLFormElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  useEffect(() => {
    if (editing && !wasEditing.current) {
      body.current
        ?.querySelector<HTMLElement>('input:not([type=hidden]):not(.sr-only), textarea, button[aria-pressed], [role=combobox]')
        ?.focus();
    }
    if (!editing && wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  return (
    <Card id={id} className="scroll-mt-24 p-4 sm:p-6" aria-labelledby={`${id}-title`} role="region">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="font-display text-lg font-bold">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-muted-foreground">{description}</p>}
        </div>
        {actions ??
          (!editing && onEdit && (
            <Button ref={editButton} variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${title.toLowerCase()}`}>
              <Pencil aria-hidden />
              Edit
            </Button>
          ))}
      </div>
      {editing ? (
        <form
          ref={body}
          noValidate
          className="mt-4 grid gap-5"
          onSubmit={(e) => {
            e.preventDefault();
            // Forms inside dialogs (portals) bubble their submit through React: not ours.
            if (e.target !== e.currentTarget) return;
            if (canSave && !saving) onSave?.();
          }}
        >
          {children}
          <div className="flex flex-col-reverse gap-2 border-t border-border pt-4 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canSave || saving}>
              {saving ? 'Saving…' : 'Save'}
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-3">{view}</div>
      )}
    </Card>
  );
}

/** A quiet "not added yet" line for empty answers. */
export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-sm italic text-muted-foreground">{children}</p>;
}
