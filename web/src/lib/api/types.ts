/** The shapes the JSON API answers; the shared ones are declared in core, which server and web both read. */

export type { PaperView, TopicDetail, TopicSummary } from '@quire/core';

/** What the API answers when it fails. */
export interface ApiErrorBody {
  error: string;
  message: string;
}
