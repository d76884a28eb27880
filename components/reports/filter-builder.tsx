'use client';

import * as Popover from '@radix-ui/react-popover';
import { Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button, buttonClass } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { PopoverPanel } from '@/components/ui/popover';
import { countryList } from '@/lib/shared/countries';
import { chipsOf, describeTerm, FILTER_FIELDS, filterOf, operatorsOf, termFrom } from '@/lib/dashboard/filter-builder';
import type { FilterOp } from '@/lib/query/filter';

const labelClass = 'block text-xs font-medium text-zinc-700 dark:text-zinc-300';

/**
 * The Countries filter as removable chips, a form to add one (field, operator, value), and the raw expression
 * of the API's grammar under "Edit as expression". `onChange` gets the new Filter (null for none).
 */
export function FilterBuilder({ filter, onChange }: { filter: string; onChange: (next: string | null) => void }) {
  const id = useId();
  const read = chipsOf(filter);
  const groups = 'groups' in read ? read.groups : [];
  const write = (next: typeof groups) => onChange(next.length > 0 ? filterOf(next) : null);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
        <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">Filters</span>
        {groups.map((group, i) => {
          const text = group.map(describeTerm).join(' or ');
          return (
            <span
              key={`${i}-${text}`}
              className="inline-flex items-center gap-1 rounded-full border border-zinc-300 bg-zinc-50 py-0.5 pr-1 pl-3 text-sm dark:border-zinc-700 dark:bg-zinc-800"
            >
              {text}
              <button
                type="button"
                aria-label={`Remove filter ${text}`}
                className="rounded-full p-1 hover:bg-zinc-200 dark:hover:bg-zinc-700"
                onClick={() => write(groups.filter((_, j) => j !== i))}
              >
                <X aria-hidden className="size-3.5" />
              </button>
            </span>
          );
        })}
        <AddFilter onAdd={(term) => write([...groups, [term]])} />
      </div>
      {'error' in read && (
        <p className="text-xs text-red-700 dark:text-red-400">This filter cannot be shown as chips: {read.error}</p>
      )}
      <details open={'error' in read} className="text-sm">
        <summary className="cursor-pointer text-xs font-medium text-accent-700 dark:text-accent-300">
          Edit as expression
        </summary>
        <form
          className="mt-2 flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            onChange(String(new FormData(e.currentTarget).get('Filter') ?? '').trim() || null);
          }}
        >
          <div className="space-y-1">
            <label htmlFor={`${id}-filter`} className={labelClass}>
              Filter
            </label>
            <input
              id={`${id}-filter`}
              key={filter}
              name="Filter"
              defaultValue={filter}
              placeholder="e.g. cpm>2;fillRate>=0.8"
              aria-describedby={`${id}-filter-hint`}
              className={`${inputClass} w-72 max-w-full font-mono`}
            />
            <p id={`${id}-filter-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
              The API’s syntax: field, operator and value; “;” for and, “,” for or.
            </p>
          </div>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      </details>
    </div>
  );
}

/** "Add filter": a small form in a popover; the chip is checked by the API's parser before it is added. */
function AddFilter({ onAdd }: { onAdd: (term: Exclude<ReturnType<typeof termFrom>, { error: string }>) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [fieldName, setFieldName] = useState(FILTER_FIELDS[0].name);
  const [problem, setProblem] = useState<string | null>(null);
  const field = FILTER_FIELDS.find((f) => f.name === fieldName)!;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const made = termFrom(fieldName, form.get('op') as FilterOp, String(form.get('value') ?? ''));
    if ('error' in made) return setProblem(made.error);
    setProblem(null);
    setOpen(false);
    onAdd(made);
  };
  return (
    <Popover.Root
      open={open}
      onOpenChange={(opening) => {
        // Each new chip starts from a blank form.
        if (opening) {
          setFieldName(FILTER_FIELDS[0].name);
          setProblem(null);
        }
        setOpen(opening);
      }}
    >
      <Popover.Trigger className={buttonClass('ghost', 'h-8 px-2 text-xs')}>
        <Plus aria-hidden className="size-3.5" />
        Add filter
      </Popover.Trigger>
      <PopoverPanel aria-label="Add a filter" className="w-80 p-3">
        <form onSubmit={submit} className="space-y-3">
          <div className="grid grid-cols-[1fr_auto] gap-2">
            <div className="space-y-1">
              <label htmlFor={`${id}-field`} className={labelClass}>
                Field
              </label>
              <select
                id={`${id}-field`}
                className={`${inputClass} w-full`}
                value={fieldName}
                onChange={(e) => {
                  setFieldName(e.target.value);
                  setProblem(null);
                }}
              >
                {FILTER_FIELDS.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1">
              <label htmlFor={`${id}-op`} className={labelClass}>
                Operator
              </label>
              <select id={`${id}-op`} name="op" key={field.unit === 'country' ? 'c' : 'n'} className={inputClass}>
                {operatorsOf(field).map((o) => (
                  <option key={o.op} value={o.op}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-value`} className={labelClass}>
              {field.unit === 'country' ? 'Country' : `Value${UNIT_HINT[field.unit]}`}
            </label>
            {field.unit === 'country' ? (
              <select id={`${id}-value`} name="value" className={`${inputClass} w-full`} key="country">
                {countryList().map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={`${id}-value`}
                name="value"
                key="number"
                inputMode="decimal"
                autoComplete="off"
                className={`${inputClass} w-full`}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
              />
            )}
            {problem && (
              <p id={`${id}-problem`} role="alert" className="text-xs text-red-700 dark:text-red-400">
                {problem}
              </p>
            )}
          </div>
          <Button type="submit" className="w-full">
            Add filter
          </Button>
        </form>
      </PopoverPanel>
    </Popover.Root>
  );
}

const UNIT_HINT: Record<'usd' | 'count' | 'ratio', string> = { usd: ' (USD)', count: '', ratio: ' (%)' };
