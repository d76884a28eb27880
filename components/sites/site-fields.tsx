'use client';

import { Field } from '@/components/ui/field';

export interface SiteValues {
  name: string;
  url: string;
  framework: string;
}

/**
 * A site's name, URL and framework, with each field's error tied to it; the framework is free text with the
 * common engines as suggestions.
 */
export function SiteFields({
  id,
  values,
  errors,
  frameworks,
}: {
  id: string;
  values?: SiteValues;
  errors: Record<string, string>;
  frameworks: readonly string[];
}) {
  return (
    <>
      <Field
        label="Name"
        id={`${id}-name`}
        name="name"
        required
        maxLength={100}
        defaultValue={values?.name}
        placeholder="e.g. Sky Hopper"
        aria-invalid={!!errors.name}
        hint={errors.name}
      />
      <Field
        label="URL"
        id={`${id}-url`}
        name="url"
        type="url"
        required
        maxLength={2048}
        defaultValue={values?.url}
        placeholder="https://example.com/game"
        aria-invalid={!!errors.url}
        hint={errors.url ?? 'Where reviewers can play the game: an http:// or https:// address.'}
      />
      <Field
        label="Framework"
        id={`${id}-framework`}
        name="framework"
        required
        maxLength={40}
        list={`${id}-frameworks`}
        defaultValue={values?.framework}
        placeholder="e.g. phaser"
        aria-invalid={!!errors.framework}
        hint={errors.framework ?? 'The engine the game is made with; pick one or type your own.'}
      />
      <datalist id={`${id}-frameworks`}>
        {frameworks.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      {errors.form && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errors.form}
        </p>
      )}
    </>
  );
}

/** The three fields of a submitted site form. */
export const siteValuesOf = (form: FormData): SiteValues => ({
  name: String(form.get('name') ?? ''),
  url: String(form.get('url') ?? ''),
  framework: String(form.get('framework') ?? ''),
});
