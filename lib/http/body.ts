import type { z } from 'zod';
import { ValidationError, badRequest } from '@/lib/shared/errors';
import { ProblemError } from './problem';
import { fieldErrorsOf } from '@/lib/shared/zod-issues';

const MAX_BODY_BYTES = 16 * 1024;

/** application/json, text/json and any application/*+json, with or without parameters such as charset. */
function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type === 'text/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

const tooLarge = (maxBytes: number) =>
  new ProblemError({
    status: 413,
    title: 'Content Too Large',
    detail: `The request body must be at most ${maxBytes} bytes.`,
  });

/**
 * The body's bytes as they arrive, cut off with a 413 past `maxBytes` (declared or actual), so a huge or
 * endless body is never buffered.
 */
export async function* streamBody(request: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge(maxBytes);
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

async function readLimited(request: Request): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of streamBody(request, MAX_BODY_BYTES)) chunks.push(chunk);
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

/**
 * Parses a JSON request body against a strict zod schema. An empty body counts as `{}` (every field of
 * our request bodies is optional), so `curl -X POST` with no body works.
 */
export async function readJsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const text = await readLimited(request);
  let value: unknown = {};
  if (text.trim() !== '') {
    const contentType = request.headers.get('content-type');
    if (!contentType || !isJsonMediaType(contentType)) {
      throw new ProblemError({
        status: 415,
        title: 'Unsupported Media Type',
        detail: `Content-Type: send the body as application/json, text/json or application/*+json${
          contentType ? `, not ${contentType}` : ''
        }.`,
        headers: { 'Accept-Post': 'application/json, text/json, application/*+json' },
      });
    }
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw badRequest('body', `is not valid JSON (${(err as Error).message}).`);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError(fieldErrorsOf(parsed.error));
  }
  return parsed.data;
}
