/** The one error type of @quire/core. `code` is stable for programs; `message` is a sentence for people. */
export type CoreErrorCode =
  'invalid-arxiv-id' | 'invalid-paper' | 'invalid-date' | 'invalid-taxonomy' | 'invalid-input' | 'forbidden';

export class CoreError extends Error {
  override readonly name = 'CoreError';
  constructor(
    readonly code: CoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
