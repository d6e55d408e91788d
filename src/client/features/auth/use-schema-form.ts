import { useRef, useState } from 'react';
import type { z } from 'zod/mini';
import { useToast } from '../../components/ui/toast';
import { NETWORK_ERROR } from '../../lib/api';

type Schema = z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>;
/** The schema's text fields, the ones an <input> registers. */
type FieldName<S extends Schema> = {
  [K in keyof z.input<S>]-?: z.input<S>[K] extends string | undefined ? K : never;
}[keyof z.input<S>] &
  string;
type FieldErrors<S extends Schema> = Partial<Record<FieldName<S>, { message: string }>>;
type Binding = Pick<React.ComponentProps<'input'>, 'ref' | 'onChange' | 'onFocus'>;

/**
 * The few react-hook-form features the sign-in pages use, validated with the shared zod
 * schema (the spec's messages). Behaves like `useForm({ resolver: zodResolver(schema) })`:
 * validation on submit, then each changed field again; the first invalid field gets the
 * focus; the submit handler receives the parsed values (trimmed, lower-cased e-mail…).
 *
 * DESIGN §7: neither react-hook-form nor zod is part of the initial JavaScript of `/auth/*`.
 * The schema module is loaded when a field is first focused (or at the latest on submit),
 * so the form renders and takes input without it.
 */
export function useSchemaForm<S extends Schema>(loadSchema: () => Promise<S>, defaultValues: Record<FieldName<S>, string>) {
  type Name = FieldName<S>;
  const toast = useToast();
  const elements = useRef(new Map<Name, HTMLInputElement>());
  const values = useRef<Record<string, string>>({ ...defaultValues });
  const schema = useRef<{ loaded?: S; loading?: Promise<S> }>({});
  const submitted = useRef(false);
  const [errors, setErrors] = useState<FieldErrors<S>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const [, rerender] = useState(0);

  const load = () => {
    schema.current.loading ??= loadSchema().then(
      (s) => {
        schema.current.loaded = s;
        return s;
      },
      (err: unknown) => {
        schema.current.loading = undefined; // Try again on the next submit.
        throw err;
      },
    );
    return schema.current.loading;
  };

  const validate = (s: S) => {
    // Autofill does not always fire input events: read what the inputs hold.
    for (const [name, el] of elements.current) values.current[name] = el.value;
    const result = s.safeParse(values.current);
    const found: FieldErrors<S> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const name = issue.path.join('.') as Name;
        found[name] ??= { message: issue.message };
      }
    }
    return { result, found };
  };

  // Stable per field, so React does not detach and re-attach the inputs on every render.
  const bindings = useRef(new Map<Name, Binding>());
  const bind = (name: Name) => {
    let binding = bindings.current.get(name);
    if (!binding) {
      binding = {
        ref: (el: HTMLInputElement | null) => {
          if (el) elements.current.set(name, el);
          else elements.current.delete(name);
        },
        onFocus: () => void load().catch(() => {}),
        onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
          values.current[name] = e.target.value;
          const loaded = schema.current.loaded;
          if (submitted.current && loaded) {
            const { found } = validate(loaded);
            setErrors((prev) => {
              const next = { ...prev };
              if (found[name]) next[name] = found[name];
              else delete next[name];
              return next;
            });
          }
          rerender((n) => n + 1);
        },
      };
      bindings.current.set(name, binding);
    }
    return binding;
  };

  const handleSubmit = (onValid: (data: z.output<S>) => unknown) => async (e?: React.FormEvent) => {
    e?.preventDefault();
    setSubmitting(true);
    try {
      let s: S;
      try {
        s = await load();
      } catch {
        toast({ title: 'Something went wrong', description: NETWORK_ERROR, variant: 'destructive' });
        return;
      }
      const { result, found } = validate(s);
      submitted.current = true;
      setErrors(found);
      if (result.success) {
        await onValid(result.data as z.output<S>);
        return;
      }
      // The first invalid field in the form's order, as react-hook-form does.
      for (const [name, el] of elements.current) {
        if (found[name]) {
          el.focus();
          break;
        }
      }
    } finally {
      setSubmitting(false);
    }
  };

  return {
    register: (name: Name) => ({ name, defaultValue: values.current[name], ...bind(name) }),
    handleSubmit,
    errors,
    isSubmitting,
    watch: (name: Name): string => values.current[name] ?? '',
    setError: (name: Name, error: { message: string }) => setErrors((prev) => ({ ...prev, [name]: error })),
    setFocus: (name: Name) => elements.current.get(name)?.focus(),
    setValue: (name: Name, value: string) => {
      values.current[name] = value;
      const el = elements.current.get(name);
      if (el) el.value = value;
      rerender((n) => n + 1);
    },
  };
}
