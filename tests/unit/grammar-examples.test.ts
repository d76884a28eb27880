import { describe, expect, it } from 'vitest';
import type { oas31 } from 'zod-openapi';
import { ENDPOINTS, openApiDocument } from '@/lib/api/endpoints';
import { readView } from '@/lib/dashboard/url';

/**
 * The document's examples of Filter and FilterList are each list's own: a reader who copies one into that list's
 * query gets an answer, not a 400 about a field the list does not have (every list used to show the reports'
 * `country` and `cpm`).
 */
const document = openApiDocument();
const filtered = ENDPOINTS.filter((e) => e.query && 'Filter' in e.query.in.shape);

const parametersOf = (path: string, method: string) =>
  ((document.paths![path] as oas31.PathItemObject)[method.toLowerCase() as 'get'] as oas31.OperationObject)
    .parameters as oas31.ParameterObject[];

describe("every list's Filter and FilterList examples", () => {
  it('are there to check', () => expect(filtered.length).toBeGreaterThanOrEqual(8));

  it.each(filtered.map((e) => [e.operationId, e] as const))('%s: parse with its own fields', (_, endpoint) => {
    const parameters = parametersOf(endpoint.path, endpoint.method);
    const filter = /Example: `([^`]+)`/.exec(parameters.find((p) => p.name === 'Filter')!.description!)![1];
    const filterList = parameters.find((p) => p.name === 'FilterList')!.example as Record<string, string>;
    const read = readView(endpoint.query!, {
      Filter: filter,
      ...Object.fromEntries(Object.entries(filterList).map(([field, values]) => [`FilterList[${field}]`, values])),
    });
    expect(read instanceof Error ? read.message : 'read', `${filter} and ${JSON.stringify(filterList)}`).toBe('read');
  });
});
