/** The shapes the JSON API answers; the shared ones are declared in core, which server and web both read. */

export type { PaperView, TopicDetail, TopicSummary } from '@quire/core';

/** What the API answers when it fails. */
export interface ApiErrorBody {
  error: string;
  message: string;
}

/** One sentence quoted from an abstract, with the paper it comes from. */
export interface AskAnswer {
  paperId: string;
  title: string;
  listingDate: string | null;
  sentence: string;
  score: number;
  /** The question's words found in the sentence (lower-cased), for highlighting. */
  matched: string[];
}

/** GET /api/topics/:slug/ask: retrieval over the topic's newest abstracts, nothing generated. */
export interface AskResponse {
  slug: string;
  question: string;
  papersRead: number;
  answers: AskAnswer[];
}
