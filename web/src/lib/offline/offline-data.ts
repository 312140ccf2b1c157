import type { PaperView, TopicDetail, TopicSummary } from '../api/types.ts';
import {
  chooseEvictions,
  overLimit,
  PAPER_LIMIT,
  PAPER_SLACK,
  pinnedPaperIds,
  TOPIC_LIMIT,
  TOPIC_SLACK,
  type StoredStamp,
} from './cache-rules.ts';
import type { IndexSnapshot, KeptPaper } from './offline-index.ts';
import {
  BY_STORED_AT,
  committed,
  META,
  META_KEYS,
  openOfflineDb,
  PAPERS,
  result,
  TOPICS,
} from './offline-db.ts';

export interface PaperRecord extends KeptPaper {
  id: string;
}

interface TopicRecord {
  slug: string;
  topic: TopicDetail;
  storedAt: number;
}

/** A kept value and when it was stored (ms since the epoch), to tell the reader how old it is. */
export interface Kept<T> {
  value: T;
  storedAt: number;
}

/** Papers stored or dropped by one write, for the offline index to follow. */
export interface PaperChanges {
  stored: readonly PaperRecord[];
  deleted: readonly string[];
}

/** What the reader wants kept whatever its age: saved papers and followed topics. */
export interface Pins {
  savedIds: Iterable<string>;
  followedSlugs: Iterable<string>;
}

export interface OfflineDataOptions {
  pins?: () => Pins;
  now?: () => number;
  paperLimit?: number;
  topicLimit?: number;
}

/**
 * The data this device keeps for offline use, in IndexedDB: every paper the app fetched (bounded, see
 * cache-rules.ts), visited and followed topics, the topic list and the offline search index. Writes never
 * fail a page: a full or refused database only means less is kept.
 */
export class OfflineData {
  readonly #pins: () => Pins;
  readonly #now: () => number;
  readonly #paperLimit: number;
  readonly #topicLimit: number;
  readonly #listeners = new Set<(changes: PaperChanges) => void>();
  #db: Promise<IDBDatabase | null> | null = null;

  constructor(options: OfflineDataOptions = {}) {
    this.#pins = options.pins ?? (() => ({ savedIds: [], followedSlugs: [] }));
    this.#now = options.now ?? (() => Date.now());
    this.#paperLimit = options.paperLimit ?? PAPER_LIMIT;
    this.#topicLimit = options.topicLimit ?? TOPIC_LIMIT;
  }

  /** Calls `listener` after every write that stored or dropped papers; returns the unsubscribe. */
  onPapersChanged(listener: (changes: PaperChanges) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async putPapers(papers: readonly PaperView[]): Promise<void> {
    if (papers.length === 0) return;
    const storedAt = this.#now();
    const records = papers.map((paper): PaperRecord => ({ id: paper.id, paper, storedAt }));
    const ok = await this.#write(PAPERS, (store) => {
      for (const record of records) store.put(record);
    });
    if (!ok) return;
    this.#emit({ stored: records, deleted: [] });
    await this.#evictPapers();
  }

  async getPaper(id: string): Promise<PaperRecord | undefined> {
    return (await this.getPapers([id])).get(id);
  }

  /** The kept papers among `ids`, in one transaction. */
  async getPapers(ids: readonly string[]): Promise<Map<string, PaperRecord>> {
    const found = new Map<string, PaperRecord>();
    if (ids.length === 0) return found;
    await this.#read(PAPERS, async (store) => {
      const records = await Promise.all(ids.map((id) => result(store.get(id) as IDBRequest<PaperRecord>)));
      for (const record of records) if (record) found.set(record.id, record);
    });
    return found;
  }

  /** Every kept paper's id. */
  async paperIds(): Promise<string[]> {
    const keys = await this.#read(PAPERS, (store) => result(store.getAllKeys()));
    return (keys ?? []).map(String);
  }

  /** Ids of the papers stored at or after `since`. */
  async paperIdsStoredSince(since: number): Promise<string[]> {
    const keys = await this.#read(PAPERS, (store) =>
      result(store.index(BY_STORED_AT).getAllKeys(IDBKeyRange.lowerBound(since))),
    );
    return (keys ?? []).map(String);
  }

  async putTopic(topic: TopicDetail): Promise<void> {
    const record: TopicRecord = { slug: topic.slug, topic, storedAt: this.#now() };
    if (await this.#write(TOPICS, (store) => store.put(record))) await this.#evictTopics();
  }

  async getTopic(slug: string): Promise<Kept<TopicDetail> | undefined> {
    const record = await this.#read(TOPICS, (store) => result(store.get(slug) as IDBRequest<TopicRecord>));
    return record ? { value: record.topic, storedAt: record.storedAt } : undefined;
  }

  async putTopicList(topics: readonly TopicSummary[]): Promise<void> {
    const kept: Kept<readonly TopicSummary[]> = { value: topics, storedAt: this.#now() };
    await this.#write(META, (store) => store.put(kept, META_KEYS.topicList));
  }

  async getTopicList(): Promise<Kept<TopicSummary[]> | undefined> {
    return this.#read(META, (store) =>
      result(store.get(META_KEYS.topicList) as IDBRequest<Kept<TopicSummary[]>>),
    );
  }

  async readIndexSnapshot(): Promise<IndexSnapshot | undefined> {
    return this.#read(META, (store) => result(store.get(META_KEYS.searchIndex) as IDBRequest<IndexSnapshot>));
  }

  async writeIndexSnapshot(snapshot: IndexSnapshot): Promise<boolean> {
    return this.#write(META, (store) => store.put(snapshot, META_KEYS.searchIndex));
  }

  /** Drops the oldest unpinned papers once there are clearly too many. */
  async #evictPapers(): Promise<void> {
    const count = await this.#read(PAPERS, (store) => result(store.count()));
    if (count === undefined || !overLimit(count, this.#paperLimit, PAPER_SLACK)) return;
    const stamps = await this.#stamps(PAPERS);
    const pins = this.#pins();
    const followed = await Promise.all([...pins.followedSlugs].map((slug) => this.getTopic(slug)));
    const pinned = pinnedPaperIds(
      pins.savedIds,
      followed.flatMap((t) => (t ? [t.value] : [])),
    );
    const doomed = chooseEvictions(stamps, pinned, this.#paperLimit);
    if (doomed.length === 0) return;
    const ok = await this.#write(PAPERS, (store) => {
      for (const id of doomed) store.delete(id);
    });
    if (ok) this.#emit({ stored: [], deleted: doomed });
  }

  async #evictTopics(): Promise<void> {
    const count = await this.#read(TOPICS, (store) => result(store.count()));
    if (count === undefined || !overLimit(count, this.#topicLimit, TOPIC_SLACK)) return;
    const pinned = new Set(this.#pins().followedSlugs);
    const doomed = chooseEvictions(await this.#stamps(TOPICS), pinned, this.#topicLimit);
    await this.#write(TOPICS, (store) => {
      for (const slug of doomed) store.delete(slug);
    });
  }

  /** Every entry's key and storedAt, read from the index alone (no record is loaded). */
  async #stamps(storeName: string): Promise<StoredStamp[]> {
    const stamps: StoredStamp[] = [];
    await this.#read(
      storeName,
      (store) =>
        new Promise<void>((resolve, reject) => {
          const req = store.index(BY_STORED_AT).openKeyCursor();
          req.onerror = () => reject(req.error ?? new Error('An IndexedDB cursor failed.'));
          req.onsuccess = () => {
            const cursor = req.result;
            if (!cursor) return resolve();
            // Both stores are keyed by strings (id, slug) and indexed by numbers (storedAt).
            stamps.push({ key: cursor.primaryKey as string, storedAt: cursor.key as number });
            cursor.continue();
          };
        }),
    );
    return stamps;
  }

  #emit(changes: PaperChanges): void {
    for (const listener of this.#listeners) listener(changes);
  }

  #open(): Promise<IDBDatabase | null> {
    this.#db ??= openOfflineDb();
    return this.#db;
  }

  /** Runs `body` in a read-only transaction; undefined when there is no database or the read failed. */
  async #read<T>(storeName: string, body: (store: IDBObjectStore) => Promise<T>): Promise<T | undefined> {
    try {
      const db = await this.#open();
      if (!db) return undefined;
      return await body(db.transaction(storeName, 'readonly').objectStore(storeName));
    } catch {
      return undefined;
    }
  }

  /** Runs `body` in a read-write transaction; true once committed. */
  async #write(storeName: string, body: (store: IDBObjectStore) => void): Promise<boolean> {
    try {
      const db = await this.#open();
      if (!db) return false;
      const tx = db.transaction(storeName, 'readwrite');
      body(tx.objectStore(storeName));
      await committed(tx);
      return true;
    } catch {
      // Quota exceeded or the database went away: the app goes on, only less is kept.
      return false;
    }
  }
}
