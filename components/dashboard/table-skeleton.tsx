import { Card, Skeleton } from '@/components/ui/card';

/** The shape of a table page while its data loads: title, a toolbar and rows of the final height. */
export function TableSkeleton({ label, rows = 8 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-label={`Loading ${label}`}>
      <Skeleton className="mb-6 h-9 w-48" />
      <Card className="space-y-3 p-4">
        <Skeleton className="h-9 w-full max-w-md" />
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </Card>
    </div>
  );
}
