/** API keys: create, list, revoke and rotate a publisher's keys, and find the key a request carries. */
export {
  MAX_ACTIVE_KEYS,
  createApiKey,
  createApiKeyForUser,
  createApiKeyInput,
  keyAuthors,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
} from './api-keys';
export type { KeyAuthor } from './api-keys';
export { ApiKeyResponse, CreateApiKeyResponse } from './schemas';
export { authenticateApiKey, touchApiKey } from './authenticate';
