import MiniSearch from 'minisearch';
import { paperIndexOptions, SEARCH_FIELDS, type SearchDoc } from './search-config.ts';
import { indexTerms, tokenizeField } from './search-text.ts';

const FIELD_COUNT = SEARCH_FIELDS.length;

/** What a finished build hands to the index. */
interface BuiltParts {
  documentIds: Map<number, string>;
  idToShortId: Map<string, number>;
  fieldLength: Map<number, number[]>;
  averageFieldLength: number[];
  storedFields: Map<number, Record<string, unknown>>;
  termIds: Map<string, number>;
  postings: number[][];
}

/**
 * A paper index filled in one go from counted postings. It fills the same protected state minisearch's
 * own `loadJS` fills, minus the detour through a serialised object (which alone took seconds for the
 * corpus). A unit test checks the result equals `addAll`'s, so a minisearch upgrade that changes its
 * internals fails there first.
 */
class BuiltPaperIndex extends MiniSearch<SearchDoc> {
  /**
   * Papers holding `term` in a field (the largest per-field count: a cheap bound). minisearch keeps the
   * postings but exposes no count; every MiniSearch instance has `_index`, whichever way it was made.
   */
  static papersWithTerm(index: MiniSearch<SearchDoc>, term: string, fieldIds: readonly number[]): number {
    const byField = (index as BuiltPaperIndex)._index.get(term);
    if (!byField) return 0;
    let most = 0;
    for (const fieldId of fieldIds) most = Math.max(most, byField.get(fieldId)?.size ?? 0);
    return most;
  }

  constructor(parts: BuiltParts) {
    super(paperIndexOptions());
    this._documentCount = parts.documentIds.size;
    this._nextId = parts.documentIds.size;
    this._documentIds = parts.documentIds;
    this._idToShortId = parts.idToShortId;
    this._fieldLength = parts.fieldLength;
    this._avgFieldLength = parts.averageFieldLength;
    this._storedFields = parts.storedFields;
    this._dirtCount = 0;
    for (const [term, termId] of parts.termIds) {
      const byField = new Map<number, Map<number, number>>();
      for (let fieldId = 0; fieldId < FIELD_COUNT; fieldId++) {
        const list = parts.postings[termId * FIELD_COUNT + fieldId];
        if (!list) continue;
        const byDoc = new Map<number, number>();
        for (let i = 0; i < list.length; i += 2) byDoc.set(list[i] ?? 0, list[i + 1] ?? 0);
        byField.set(fieldId, byDoc);
      }
      this._index.set(term, byField);
    }
  }
}

/**
 * Builds the same index as `createPaperIndex().addAll(docs)`, several times faster: minisearch's `add`
 * walks its term tree once per word of every abstract (5 million walks for the corpus); here occurrences
 * are counted per paper, then per term, and the tree is made once per distinct term.
 *
 * Papers can be added a slice at a time, so a caller can build without blocking for the whole corpus.
 */
export class PaperIndexBuilder {
  readonly #storeFields = paperIndexOptions().storeFields ?? [];
  readonly #documentIds = new Map<number, string>();
  readonly #idToShortId = new Map<string, number>();
  readonly #fieldLength = new Map<number, number[]>();
  readonly #storedFields = new Map<number, Record<string, unknown>>();
  readonly #averageFieldLength: number[] = [];
  /** Term → its number; postings are kept per (term number × field) as flat [shortId, count, …] lists. */
  readonly #termIds = new Map<string, number>();
  readonly #postings: number[][] = [];
  readonly #counts = new Map<string, number>();

  get size(): number {
    return this.#documentIds.size;
  }

  add(doc: SearchDoc): void {
    if (this.#idToShortId.has(doc.id)) throw new Error(`PaperIndexBuilder: ${doc.id} was added twice.`);
    const shortId = this.#documentIds.size;
    this.#documentIds.set(shortId, doc.id);
    this.#idToShortId.set(doc.id, shortId);
    const stored: Record<string, unknown> = {};
    for (const name of this.#storeFields) {
      const value = doc[name as keyof SearchDoc];
      if (value !== undefined) stored[name] = value;
    }
    this.#storedFields.set(shortId, stored);
    const lengths: number[] = [];
    const counts = this.#counts;
    SEARCH_FIELDS.forEach((field, fieldId) => {
      const tokens = tokenizeField(doc[field], field);
      // minisearch counts a field's length in distinct tokens and keeps a running mean; the same
      // arithmetic here keeps scores bit-for-bit equal.
      const length = new Set(tokens).size;
      lengths[fieldId] = length;
      const mean = this.#averageFieldLength[fieldId] ?? 0;
      this.#averageFieldLength[fieldId] = (mean * shortId + length) / (shortId + 1);
      // Counting within the paper first touches the big term map once per distinct term, not per word.
      counts.clear();
      for (const token of tokens) {
        for (const term of indexTerms(token, field)) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
      for (const [term, n] of counts) {
        let termId = this.#termIds.get(term);
        if (termId === undefined) this.#termIds.set(term, (termId = this.#termIds.size));
        const slot = termId * FIELD_COUNT + fieldId;
        const list = this.#postings[slot];
        if (list) list.push(shortId, n);
        else this.#postings[slot] = [shortId, n];
      }
    });
    this.#fieldLength.set(shortId, lengths);
  }

  /** The finished index. The builder must not be used afterwards: the index owns its maps. */
  finish(): MiniSearch<SearchDoc> {
    return new BuiltPaperIndex({
      documentIds: this.#documentIds,
      idToShortId: this.#idToShortId,
      fieldLength: this.#fieldLength,
      averageFieldLength: this.#averageFieldLength,
      storedFields: this.#storedFields,
      termIds: this.#termIds,
      postings: this.#postings,
    });
  }
}

/** How many papers hold `term` (an index term) in the title or the abstract, at most. */
export function papersWithTerm(index: MiniSearch<SearchDoc>, term: string): number {
  return BuiltPaperIndex.papersWithTerm(index, term, TEXT_FIELD_IDS);
}

const TEXT_FIELD_IDS = [SEARCH_FIELDS.indexOf('title'), SEARCH_FIELDS.indexOf('abstract')];

export function buildPaperIndex(docs: Iterable<SearchDoc>): MiniSearch<SearchDoc> {
  const builder = new PaperIndexBuilder();
  for (const doc of docs) builder.add(doc);
  return builder.finish();
}
