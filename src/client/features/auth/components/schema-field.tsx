import type { ComponentProps, ReactNode } from 'react';
import { describedBy, Field, Input } from '../../../components/ui/input';
import { PasswordInput } from './password-input';

/** What `useSchemaForm(…).register(name)` returns. */
type Registered = Pick<ComponentProps<'input'>, 'ref' | 'onChange' | 'onFocus' | 'defaultValue'> & { name: string };

/**
 * A labelled input bound to a field of `useSchemaForm`, as every sign-in page writes it: the id
 * is the field's name, and aria-invalid follows its error, aria-describedby its hint and error.
 */
export function SchemaField<N extends string>({
  form,
  name,
  label,
  hint,
  password = false,
  ...input
}: Omit<ComponentProps<'input'>, 'id' | 'name' | 'form'> & {
  form: { register: (name: N) => Registered; errors: Partial<Record<N, { message: string }>> };
  name: N;
  label: string;
  hint?: ReactNode;
  /** A password input with its show / hide button. */
  password?: boolean;
}) {
  const id = name;
  const error = form.errors[name]?.message;
  const Control = password ? PasswordInput : Input;
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Control id={id} aria-invalid={Boolean(error)} aria-describedby={describedBy(id, error, hint)} {...input} {...form.register(name)} />
    </Field>
  );
}
