'use client';

import { useSearchParams } from 'next/navigation';
import { paramOf, VIEW_AS } from '@/lib/dashboard/url';

/** The account the page's URL names (`?as=`), for the server actions it calls; null means the person's first. */
export function useAccount(): string | null {
  return paramOf(useSearchParams(), VIEW_AS) ?? null;
}
