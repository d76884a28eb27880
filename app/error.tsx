'use client';

/** A failure of a layout below the root (the dashboard shell's session check, say), which its own error.tsx cannot catch. */
export { StandalonePageError as default } from '@/components/layout/page-error';
