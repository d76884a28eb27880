import { createHash } from 'node:crypto';

/** SHA-256 of a text as lower-case hex: how API keys and session tokens are stored (never the raw value). */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
