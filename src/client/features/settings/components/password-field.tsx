import { Eye, EyeOff } from 'lucide-react';
import { type ComponentProps, useState } from 'react';
import { describedBy, Field, Input } from '../../../components/ui/input';

/** A labelled password input with a show/hide button and its error announced. */
export function PasswordField({
  id,
  label,
  error,
  hint,
  ...props
}: ComponentProps<'input'> & { id: string; label: string; error?: string; hint?: React.ReactNode }) {
  const [shown, setShown] = useState(false);
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <div className="relative">
        <Input
          id={id}
          {...props}
          type={shown ? 'text' : 'password'}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy(id, error, hint)}
          className="pr-12"
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          className="absolute right-1 top-1/2 flex size-9 -translate-y-1/2 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground"
          aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={shown}
        >
          {shown ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
        </button>
      </div>
    </Field>
  );
}
