import { readStored, writeStored } from './local-store.ts';
import {
  insertBySavedAt,
  parseSavedPapers,
  snapshotOf,
  type SavablePaper,
  type SavedPaper,
} from './saved-paper.ts';

export type { SavablePaper, SavedPaper } from './saved-paper.ts';

export const READING_LIST_KEY = 'quire.reading-list';

/**
 * The reader's reading list: papers saved from a card, the paper view or with S, last saved first. Kept in
 * localStorage until groups exist, when saving will add to the active group's queue instead.
 */
export class ReadingList {
  #papers = $state.raw<SavedPaper[]>([]);
  readonly #ids = $derived(this.#papers.map((p) => p.id));

  constructor() {
    this.#papers = parseSavedPapers(readStored(READING_LIST_KEY));
    if (typeof window !== 'undefined') {
      // Save in one tab, see it in the others.
      window.addEventListener('storage', (event) => {
        if (event.key === READING_LIST_KEY) this.#papers = parseSavedPapers(event.newValue);
      });
    }
  }

  /** Last saved first. */
  get papers(): readonly SavedPaper[] {
    return this.#papers;
  }

  get size(): number {
    return this.#papers.length;
  }

  has(id: string): boolean {
    return this.#ids.includes(id);
  }

  save(paper: SavablePaper): void {
    if (!this.has(paper.id)) this.#write([snapshotOf(paper), ...this.#papers]);
  }

  remove(id: string): void {
    if (this.has(id)) this.#write(this.#papers.filter((p) => p.id !== id));
  }

  toggle(paper: SavablePaper): void {
    if (this.has(paper.id)) this.remove(paper.id);
    else this.save(paper);
  }

  /** Puts a removed entry back where it was (undo). */
  restore(saved: SavedPaper): void {
    if (!this.has(saved.id)) this.#write(insertBySavedAt(this.#papers, saved));
  }

  #write(papers: SavedPaper[]): void {
    this.#papers = papers;
    writeStored(READING_LIST_KEY, JSON.stringify(papers));
  }
}

export const readingList = new ReadingList();
