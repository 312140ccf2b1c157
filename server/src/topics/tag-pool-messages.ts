import type { CompileOptions, TaggablePaper, Taxonomy } from '@quire/core';
import type { EncodedTag } from '../store/tag-store.ts';

/** What a tagging thread compiles its engine from: the taxonomy and the collection's statistics. */
export interface TagPoolData {
  taxonomy: Taxonomy;
  stats: CompileOptions;
}

/** Retag → tagging thread: one page of papers; `seq` pairs it with its reply. */
export interface TagPoolRequest {
  seq: number;
  papers: TaggablePaper[];
}

/** Tagging thread → retag: each paper's tags, in the page's order, or why the page could not be tagged. */
export type TagPoolReply = ({ seq: number; tags: EncodedTag[][] } | { seq: number; error: string }) & {
  /** The thread's CPU time so far (threadCpuMs). */
  cpuMs: number | null;
};
