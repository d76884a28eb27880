/**
 * `tsx scripts/openapi-file.ts <file>`: writes the OpenAPI document to a file for the linters
 * (`npm run contract:lint`). The API names the origin a request reached as its server; a file has no request,
 * so it names a placeholder that whoever publishes the file replaces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '@/lib/api/endpoints';
import { withServers } from '@/lib/api/openapi';

const file = process.argv[2];
if (!file) throw new Error('usage: tsx scripts/openapi-file.ts <file>');
const placeholder = {
  url: 'http://localhost:3000',
  description: 'A local server (npm run dev); replace it with your deployment, whose /api/v1/openapi.json names itself',
};
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(withServers(openApiDocument(), [placeholder]), null, 2)}\n`);
