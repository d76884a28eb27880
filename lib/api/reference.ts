/**
 * The API reference page's data (/docs): the OpenAPI document turned into what a reader scans for each
 * operation (parameters, body and response fields, errors) plus a copyable curl for the page's own host.
 */
import { openApiDocument } from './endpoints';
import { NDJSON_ITEM } from './openapi';

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  pattern?: string;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  description?: string;
  items?: JsonSchema;
  contentSchema?: JsonSchema;
  [NDJSON_ITEM]?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

export interface Field {
  name: string;
  type: string;
  description: string;
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  deprecated: boolean;
  needsKey: boolean;
  parameters: Field[];
  body: Field[];
  bodyTypes: string[];
  response: { status: string; description: string; types: string[]; fields: Field[] };
  errors: { status: string; description: string }[];
  curl: string;
}

type Doc = {
  components: { schemas: Record<string, JsonSchema> };
  paths: Record<string, Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
};

const resolve = (doc: Doc, schema: JsonSchema | undefined): JsonSchema | undefined =>
  schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;

/** A schema as a short type: `integer (1–1000)`, `string (date)`, `asc | desc`, `SiteResponse[]`. */
function typeOf(doc: Doc, schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').pop()!;
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(doc, s)).join(' | ');
  if (schema.enum) return schema.enum.map(String).join(' | ');
  // One of some values in any letter case (lib/query/input.ts anyCaseEnum): the pattern lists them as examples.
  if (schema.pattern && schema.examples) return schema.examples.map(String).join(' | ');
  if (schema.type === 'array') return `${typeOf(doc, schema.items)}[]`;
  const limits = [
    schema.format,
    schema.minimum !== undefined || schema.maximum !== undefined
      ? `${schema.minimum ?? ''}–${schema.maximum ?? ''}`
      : undefined,
    schema.maxLength !== undefined ? `≤ ${schema.maxLength} chars` : undefined,
  ].filter(Boolean);
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object');
  return limits.length > 0 ? `${type} (${limits.join(', ')})` : type;
}

/** The fields of an object schema (for a page of rows: the row's fields). */
function fieldsOf(doc: Doc, schema: JsonSchema | undefined): Field[] {
  let object = resolve(doc, schema);
  if (object?.type === 'array') object = resolve(doc, object.items);
  const data = object?.properties?.data;
  if (data?.type === 'array') object = resolve(doc, data.items);
  return Object.entries(object?.properties ?? {}).map(([name, s]) => ({
    name,
    type: typeOf(doc, s),
    description: s.description ?? resolve(doc, s)?.description ?? '',
  }));
}

/** What the answer holds: the first media type whose schema is more than text (an export's NDJSON line). */
function answerSchema(content: Record<string, { schema?: JsonSchema }>): JsonSchema | undefined {
  return Object.values(content)
    .map(({ schema }) => schema?.[NDJSON_ITEM] ?? schema?.contentSchema ?? schema)
    .find((schema) => schema && schema.type !== 'string');
}

function curlFor(origin: string, method: string, path: string, needsKey: boolean, jsonBody: boolean): string {
  const url = `${origin}${path.replace('{id}', '<key id>').replace('{userId}', '<user id>')}`;
  const parts = [`curl${method === 'GET' ? '' : ` -X ${method}`}`];
  if (needsKey) parts.push('-H "X-Api-Key: $API_KEY"');
  if (jsonBody) parts.push(`-H "Content-Type: application/json" -d '{"label":"BI tool"}'`);
  if (path.endsWith('/admin/revenue')) parts.push('-H "Content-Type: text/csv" --data-binary @revenue.csv');
  parts.push(`"${url}"`);
  return parts.join(' \\\n  ');
}

export function apiReference(origin: string): { title: string; description: string; operations: Operation[] } {
  const doc = openApiDocument() as unknown as Doc & { info: { title: string; description: string } };
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): Operation => {
      const [status, ok] = Object.entries(op.responses as Record<string, any>).find(([s]) => s.startsWith('2'))!; // eslint-disable-line @typescript-eslint/no-explicit-any
      const bodyContent = op.requestBody?.content ?? {};
      const needsKey = (op.security ?? [null]).length > 0;
      return {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary,
        description: op.description,
        deprecated: !!op.deprecated,
        needsKey,
        parameters: (op.parameters ?? []).map(
          (p: { name: string; in: string; schema: JsonSchema; description?: string }) => ({
            name: p.in === 'path' ? `{${p.name}}` : p.name,
            type: typeOf(doc, p.schema),
            description: p.description ?? '',
          }),
        ),
        body: fieldsOf(doc, bodyContent['application/json']?.schema),
        bodyTypes: Object.keys(bodyContent),
        response: {
          status,
          description: ok.description,
          types: Object.keys(ok.content ?? {}),
          fields: fieldsOf(doc, answerSchema(ok.content ?? {})),
        },
        errors: Object.entries(op.responses as Record<string, { description: string }>)
          .filter(([s]) => !s.startsWith('2'))
          .map(([s, r]) => ({ status: s, description: r.description })),
        curl: curlFor(origin, method.toUpperCase(), path, needsKey, !!bodyContent['application/json']),
      };
    }),
  );
  return { title: doc.info.title, description: doc.info.description, operations };
}
