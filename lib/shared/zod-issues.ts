import type { z } from 'zod';
import type { FieldError } from '@/lib/shared/errors';

/**
 * A zod failure as field errors, the one way every door reports them: the API's 400 body, the key dialog's
 * messages, the CLI's usage error and the configuration check. A field is named by its path
 * (`siteIds[1]`, `a.b`); unknown keys are named one by one; a value that is not an object at all is `root`.
 */
export function fieldErrorsOf(error: z.ZodError, root = 'body'): FieldError[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    // An issue from the query grammar names its own parameter (`FilterList[country]`, or `fromDate` for a range).
    if (issue.code === 'custom' && typeof issue.params?.parameter === 'string') {
      return [{ parameter: issue.params.parameter, detail: issue.message }];
    }
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ parameter: at ? `${at}.${k}` : k, detail: 'is not a known field' }));
    }
    if (issue.code === 'invalid_type' && issue.path.length === 0)
      return [{ parameter: root, detail: 'must be a JSON object' }];
    return [{ parameter: at || root, detail: issue.message }];
  });
}

/** The top-level field an error is about (`siteIds` for `siteIds[1]`), for forms with one message per field. */
export const topField = (parameter: string) => parameter.split(/[.[]/)[0];
