'use client';

export { PageError as default } from '@/components/layout/page-error';
