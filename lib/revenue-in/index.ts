/** Revenue in: import files (CSV or NDJSON) from the CLI and the admin endpoint through one write path. */
export { importRevenue } from './import';
export { INGEST_MAX_BYTES, ingestQuery, ingestRevenue } from './ingest';
export { IMPORT_COLUMNS, formatFromName } from './parse';
export type { ImportFormat, LineError } from './parse';
export { ImportSummary } from './schemas';
