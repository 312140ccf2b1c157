import { error } from '@sveltejs/kit';
import { ApiError } from './api-error.ts';

export type ErrorSubject = App.ErrorSubject;

/**
 * Turns a failed API call inside a load function into SvelteKit's error page, saying what was being loaded
 * and the server's code, from which +error.svelte writes a reader's sentence (and what to do); the server's
 * own message, in developer words ("GET /api/topics lists them"), is kept for its Details.
 */
export function failLoad(err: unknown, subject: ErrorSubject): never {
  if (err instanceof ApiError) {
    // No answer at all is shown as 503: the app is here, its server is not.
    const status = err.status >= 400 && err.status <= 599 ? err.status : 503;
    error(status, { message: err.message, code: err.code, subject });
  }
  throw err;
}
