import { describe, expect, it } from 'vitest';
import { firstProblem, messageOf, messagesOf, type ActionError } from '@/lib/dashboard/action-result';

const invalid = (errors: ActionError['errors'], detail = 'The request was malformed.'): ActionError => ({
  status: 400,
  title: 'Invalid request',
  detail,
  errors,
});

describe('what a form shows of an action’s refusal', () => {
  it('puts each shown field’s first message beside it, and other fields’ under the form, named', () => {
    const error = invalid([
      { parameter: 'name', detail: 'is required' },
      { parameter: 'name', detail: 'is too long' },
      { parameter: 'siteIds[1]', detail: 'is not a site of yours' },
      { parameter: 'url', detail: 'must be https' },
    ]);
    expect(messagesOf(error, ['name', 'url'])).toEqual({
      name: 'is required',
      url: 'must be https',
      form: 'siteIds[1]: is not a site of yours',
    });
  });

  it('shows the detail when no field is named, or the input was not even an object', () => {
    const forbidden: ActionError = { status: 403, title: 'Forbidden', detail: 'Not yours.' };
    expect(messagesOf(forbidden, ['name'])).toEqual({ form: 'Not yours.' });
    const tampered = invalid([{ parameter: 'form', detail: 'Invalid input: expected object, received undefined' }]);
    expect(messagesOf(tampered, ['name'])).toEqual({ form: 'The request was malformed.' });
  });

  it('reads the first problem, or the detail', () => {
    expect(firstProblem(invalid([{ parameter: 'code[0]', detail: 'Type the 6 digits.' }]))).toEqual({
      field: 'code',
      message: 'Type the 6 digits.',
    });
    expect(firstProblem({ status: 429, title: 'Too Many Requests', detail: 'Wait.' })).toEqual({ message: 'Wait.' });
  });

  it('announces a sentence or the refusal’s detail', () => {
    expect(messageOf({ ok: true, data: 'Done.' })).toBe('Done.');
    expect(messageOf({ ok: false, error: { status: 404, title: 'Not Found', detail: 'No such key.' } })).toBe(
      'No such key.',
    );
  });
});
