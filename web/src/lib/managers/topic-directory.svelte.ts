import type { TopicSummary } from '../api/types.ts';
import {
  branchesTo,
  indexBySlug,
  sortTopics,
  topicMatches,
  type DirectoryView,
} from '../topics/topic-order.ts';

export { DIRECTORY_VIEWS, type DirectoryView } from '../topics/topic-order.ts';

/** The topic directory's view and filter over a list of topics (read through a getter, so it can change). */
export class TopicDirectory {
  readonly #source: () => readonly TopicSummary[];
  view = $state<DirectoryView>('rising');
  filter = $state('');

  readonly topics = $derived.by(() => this.#source());
  readonly bySlug = $derived(indexBySlug(this.topics));
  readonly #sorted = $derived.by(() => sortTopics(this.topics, this.view));

  /** The topics of the current view that pass the filter. */
  readonly visible = $derived.by(() => this.#sorted.filter((t) => topicMatches(t, this.filter)));

  /** For the tree: slugs that match or lead to a match; null when nothing is filtered. */
  readonly treeShown = $derived(
    this.filter.trim() ? branchesTo(this.topics, this.bySlug, this.filter) : null,
  );

  readonly roots = $derived(this.topics.filter((t) => t.parents.length === 0));

  constructor(source: () => readonly TopicSummary[]) {
    this.#source = source;
  }

  children(topic: TopicSummary): TopicSummary[] {
    return topic.children.flatMap((slug) => this.bySlug.get(slug) ?? []);
  }
}
