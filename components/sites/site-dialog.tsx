'use client';

import { Pencil, Plus } from 'lucide-react';
import { useId, useState, useTransition } from 'react';
import { addSiteAction, editSiteAction } from '@/lib/dashboard/actions/sites';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { siteErrorsOf } from './site-messages';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/field';
import { useAnnounce } from './announcer';
import { SiteFields, siteValuesOf, type SiteValues } from './site-fields';
import { keepingFields } from '@/components/ui/submit';
import { useAccount } from '@/components/layout/use-account';

interface Publisher {
  id: string;
  name: string;
}

/**
 * "Add site" (a publisher's own, pending; with `publishers`, an admin's for the chosen publisher) or, with
 * `site`, "Edit" of that site. The result is announced once the dialog closes.
 */
export function SiteDialog({
  frameworks,
  publishers,
  site,
}: {
  frameworks: readonly string[];
  publishers?: Publisher[];
  site?: SiteValues & { siteId: string };
}) {
  const account = useAccount();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<ActionResult<string> | null>(null);
  const [announced, setAnnounced] = useState('');
  const announce = useAnnounce(setAnnounced);
  const [pending, startTransition] = useTransition();
  const id = useId();
  const editing = !!site;

  const submit = (form: FormData) =>
    startTransition(async () => {
      const values = siteValuesOf(form);
      const answer = site
        ? await editSiteAction(account, site.siteId, values)
        : await addSiteAction(account, {
            ...values,
            publisherId: publishers ? String(form.get('publisherId') ?? '') : undefined,
          });
      setResult(answer);
      if (answer.ok) {
        announce(answer.data);
        setOpen(false);
      }
    });
  const errors = siteErrorsOf(result);

  return (
    <>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setResult(null);
        }}
      >
        <DialogTrigger asChild>
          {editing ? (
            <Button variant="ghost">
              <Pencil aria-hidden className="size-4" />
              Edit<span className="sr-only"> {site.name}</span>
            </Button>
          ) : (
            <Button>
              <Plus aria-hidden className="size-4" />
              {publishers ? 'Add a site for a publisher' : 'Add site'}
            </Button>
          )}
        </DialogTrigger>
        <DialogContent
          title={editing ? `Edit ${site.name}` : 'Add a site'}
          description={
            editing
              ? 'Change the name, address or framework.'
              : publishers
                ? 'The site starts pending; review it from this queue.'
                : 'Your site starts as pending: an admin reviews it before it is approved and goes live.'
          }
        >
          <form onSubmit={keepingFields(submit)} className="space-y-4" noValidate>
            {publishers && (
              <div className="space-y-1.5">
                <label htmlFor={`${id}-publisher`} className="block text-sm font-medium">
                  Publisher
                </label>
                <select
                  id={`${id}-publisher`}
                  name="publisherId"
                  required
                  className={inputClass}
                  aria-invalid={!!errors.publisherId}
                  aria-describedby={errors.publisherId ? `${id}-publisher-error` : undefined}
                >
                  {publishers.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
                {errors.publisherId && (
                  <p id={`${id}-publisher-error`} className="text-xs text-red-700 dark:text-red-400">
                    {errors.publisherId}
                  </p>
                )}
              </div>
            )}
            <SiteFields id={id} values={site} errors={errors} frameworks={frameworks} />
            <div className="flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={pending}>
                {pending ? 'Saving…' : editing ? 'Save' : 'Add site'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
      <span role="status" className="sr-only">
        {announced}
      </span>
    </>
  );
}
