'use client';

import * as Popover from '@radix-ui/react-popover';
import { cn } from './cn';

/** A popover's floating panel, in the app's one look: a card just below its trigger, above the page. */
export function PopoverPanel({ className, align = 'start', ...props }: Popover.PopoverContentProps) {
  return (
    <Popover.Portal>
      <Popover.Content
        align={align}
        sideOffset={6}
        className={cn(
          'z-50 rounded-md border border-zinc-200 bg-white shadow-lg dark:border-zinc-700 dark:bg-zinc-900',
          className,
        )}
        {...props}
      />
    </Popover.Portal>
  );
}
