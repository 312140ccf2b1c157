/**
 * The arXiv replay server: a local stand-in for OAI-PMH, RSS listing feeds and the query API, serving
 * recorded bytes from shared/data/arxiv/raw and feeds generated from the listing corpus.
 * `useReplayServer` (vitest teardown included) lives in ./use-replay-server.ts so that importing this
 * module never pulls in vitest.
 */
export { startReplayServer } from './server.ts';
export type { RecordedRequest, ReplayOptions, ReplayServer } from './server.ts';
export type { Fault, FaultKind } from './faults.ts';
export { corpusIndex, corpusManifest, loadCorpus } from './corpus.ts';
export type { CorpusFileStats, CorpusIndex, CorpusManifest, CorpusPaper } from './corpus.ts';
export { decodeToken, encodeToken } from './oai-token.ts';
export type { TokenState } from './oai-token.ts';
export { createdDay, replacementDay, submissionWindow, v1SubmittedMs } from './synthetic.ts';
export { feedItems } from './rss.ts';
export type { AnnounceType, RssItem } from './rss.ts';
