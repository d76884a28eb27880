/**
 * @hey-api/openapi-ts, as `npm run contract:clients` runs it: the fetch client, the SDK (one function per
 * operation, named by its operationId) and the types, from the document the contract server served.
 */
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: 'tests/contract/generated/openapi.json',
  output: 'tests/contract/generated/hey-api',
});
