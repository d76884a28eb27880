import { ValidationError, type FieldError } from '@/lib/shared/errors';

/**
 * Runs one parser and keeps its 400 instead of throwing it, so that a request's mistakes come back in one
 * answer (each parser already gathers its own) and before any database work or scope check.
 */
export function collect<T>(errors: FieldError[], parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    errors.push(...(e.errors ?? []));
    return undefined as T;
  }
}

/** The 400 for every mistake collected, if there was one. */
export function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}
