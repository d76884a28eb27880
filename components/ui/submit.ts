import type { FormEvent } from 'react';

/**
 * A form's submit handler that hands its fields to `handle` and leaves them in place. A form `action` would
 * reset them once it ran, and a refused entry (an e-mail in use, a bad URL) must stay on screen to be fixed.
 */
export const keepingFields =
  (handle: (form: FormData) => void) =>
  (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    handle(new FormData(event.currentTarget));
  };
