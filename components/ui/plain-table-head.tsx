/**
 * The header row of a table that sorts nothing (Keys, Members, People, Publishers, Activity): hidden on a phone,
 * where each cell carries its own data-label; `actions` adds a last column named only for screen readers.
 */
export function PlainTableHead({
  columns,
  actions = false,
  numeric = [],
}: {
  columns: string[];
  actions?: boolean;
  /** Columns aligned right, like the numbers under them. */
  numeric?: string[];
}) {
  return (
    <thead className="bg-zinc-50 text-left text-xs text-zinc-600 max-md:sr-only dark:bg-zinc-900 dark:text-zinc-400">
      <tr>
        {columns.map((h) => (
          <th key={h} scope="col" className={`px-4 py-3 font-medium ${numeric.includes(h) ? 'text-right' : ''}`}>
            {h}
          </th>
        ))}
        {actions && (
          <th scope="col" className="px-4 py-3">
            <span className="sr-only">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
