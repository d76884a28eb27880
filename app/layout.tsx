import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'Publisher Portal',
  description: 'Revenue reporting for web-game publishers',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, 404s included: Next.js can only put a response's CSP nonce
  // (proxy.ts) on the scripts of a page it renders for that response.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
