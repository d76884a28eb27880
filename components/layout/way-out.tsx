import Link from 'next/link';

const PLACES = [
  { href: '/', label: 'Overview' },
  { href: '/sites', label: 'Sites' },
  { href: '/countries', label: 'Countries' },
  { href: '/keys', label: 'API keys' },
  { href: '/docs', label: 'API docs' },
];

/** Where to go from a page that could not be shown: the portal's main pages. */
export function WayOut() {
  return (
    <nav aria-label="Portal pages">
      <ul className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {PLACES.map((place) => (
          <li key={place.href}>
            <Link href={place.href} className="font-medium text-accent-700 hover:underline dark:text-accent-300">
              {place.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
