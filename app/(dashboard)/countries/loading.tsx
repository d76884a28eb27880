import { TableSkeleton } from '@/components/dashboard/table-skeleton';

export default function Loading() {
  return <TableSkeleton label="countries" />;
}
