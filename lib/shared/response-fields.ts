/**
 * The field types that the response schemas of every domain share (lib/<domain>/schemas.ts): as the API
 * documents them, one instance each, so that the OpenAPI document writes them out alike wherever they occur.
 */
import { z } from './zod';

export const uuid = z.uuid();
export const timestamp = z.iso
  .datetime({ offset: true })
  .meta({ description: 'ISO-8601 date-time in UTC', example: '2026-11-24T00:00:00.000Z' });
/** Dollars, as the API answers money: services hold integer micro-dollars until the mapping to a response. */
export const usd = (description: string) => z.number().min(0).meta({ description });
export const count = (description: string) => z.int().min(0).meta({ description });
export const country = z
  .string()
  .length(2)
  .nullable()
  .meta({ description: 'ISO 3166-1 alpha-2 code of the viewers', example: 'US' });
export const fillRate = z.number().min(0).max(1).meta({ description: 'Impressions per ad request' });
/** Dollars that may be negative: a balance, an adjustment. */
export const signedUsd = (description: string) => z.number().meta({ description });
/** A UTC calendar day. */
export const day = z.iso.date().meta({ description: 'UTC calendar day, YYYY-MM-DD', example: '2026-11-30' });
