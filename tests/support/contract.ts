/**
 * The API's contract as the tests see it, from the one endpoint table: which route module serves a path,
 * and whether a response is one the OpenAPI document allows (status, content type, body).
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { openApiDocument } from '@/lib/api/endpoints';
import { NDJSON_ITEM } from '@/lib/api/openapi';

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type RouteModule = Record<string, Handler>;

const modules = import.meta.glob<RouteModule>('/app/api/**/route.ts', { eager: true });

/** Every path of the table: its pattern, its route module and the names of its path parameters. */
export const ROUTES: [RegExp, RouteModule, string[], string][] = [...new Set(ENDPOINTS.map((e) => e.path))].map(
  (path) => {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const pattern = new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`);
    const file = `/app${path.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`;
    const routeModule = modules[file];
    if (!routeModule) throw new Error(`no route file ${file} for ${path} (lib/api/endpoints.ts)`);
    return [pattern, routeModule, names, path];
  },
);

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const document = openApiDocument() as unknown as {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: object;
};
ajv.addSchema({ $id: 'openapi', components: document.components });
const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
const validatorOf = (schema: object) => {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
    compiled.set(schema, validate);
  }
  return validate;
};

/**
 * Throws unless the response is one the document allows for its operation. Answers without an operation
 * (an unknown path, a method the path does not have, OPTIONS) are the wrapper's and are not in the document.
 */
export function assertMatchesContract(
  method: string,
  pathname: string,
  status: number,
  contentType: string | null,
  text: string,
) {
  const route = ROUTES.find(([pattern]) => pattern.test(pathname));
  const operation = route && document.paths[route[3]]?.[method.toLowerCase()];
  if (!operation) return;
  const where = `${method} ${route[3]} → ${status}`;
  const response = operation.responses[String(status)];
  if (!response)
    throw new Error(`${where}: status not in the OpenAPI document (${Object.keys(operation.responses).join(', ')})`);
  if (!response.content) {
    if (text !== '') throw new Error(`${where}: the document says no body, got ${text.slice(0, 200)}`);
    return;
  }
  const type = (contentType ?? '').split(';')[0].trim();
  const media = response.content[type];
  if (!media)
    throw new Error(`${where}: Content-Type ${type} not in the document (${Object.keys(response.content).join(', ')})`);
  if (!/json/.test(type) && type !== 'text/plain') return;
  // JSON sent as text (text/json, text/plain) is a string whose contentSchema is the JSON's; NDJSON is a string
  // of lines, each one value of its item schema.
  const { contentSchema, [NDJSON_ITEM]: item } = media.schema as { contentSchema?: object; [NDJSON_ITEM]?: object };
  if ((type.startsWith('text/') || type === 'application/x-ndjson') && !contentSchema && !item)
    throw new Error(`${where}: ${type} is JSON text, but the document does not say what the text holds`);
  const validate = validatorOf(contentSchema ?? item ?? media.schema);
  const values = type === 'application/x-ndjson' ? text.split('\n').filter(Boolean) : [text];
  for (const value of values) {
    if (!validate(JSON.parse(value))) {
      throw new Error(
        `${where}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${value.slice(0, 500)}`,
      );
    }
  }
}
