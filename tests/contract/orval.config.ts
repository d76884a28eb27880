/**
 * orval, as `npm run contract:clients` runs it: the fetch client, one function per operation named by its
 * operationId, from the document the contract server served. The mutator (a hand-written fetch, the place
 * orval gives for the server's address) puts the origin in front of the paths the functions build.
 */
import { defineConfig } from 'orval';

export default defineConfig({
  api: {
    input: { target: './generated/openapi.json' },
    output: {
      target: './generated/orval/api.ts',
      client: 'fetch',
      mode: 'single',
      override: { mutator: { path: './clients/orval-fetch.ts', name: 'orvalFetch' } },
    },
  },
});
