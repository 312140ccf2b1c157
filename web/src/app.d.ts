// See https://svelte.dev/docs/kit/types#app.d.ts
declare global {
  namespace App {
    /** What a page was loading when it failed, so the error page can say "Topic not found". */
    type ErrorSubject = 'topic' | 'paper' | 'topics' | 'status';

    interface Error {
      message: string;
      /** The server's error code ("not-found", "invalid-arxiv-id") or "unreachable". */
      code?: string;
      subject?: ErrorSubject;
    }
  }
}

export {};
