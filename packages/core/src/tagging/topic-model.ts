import type { TermWords, WordBuffer } from './term-words.ts';
import { foldLower, tokenise } from './tokenise.ts';

/**
 * The learned stage: one logistic regression per topic over a paper's words and word pairs (issue 9),
 * fitted by tests/eval/train-topic-models.ts on the development judgments and the rules' surest tags. The
 * weights are data (taxonomy/topic-models.json, the strongest features of each topic only), read the same
 * way in Node and the browser. A topic's log-odds joins its tag's calibration and can carry a tag the rules
 * missed; the features that pushed it up are the tag's evidence.
 *
 * Features, each present or not (counted once a paper):
 * - `word`: a word anywhere in the title or abstract, as tokenise folds it ("agents" → "agent");
 * - `title:word`: the same word in the title, which says more about what the paper is;
 * - `word word`: two words next to each other, neither a stopword ("reward model").
 */
export interface TopicModelFile {
  version: string;
  /** Per topic: the intercept and its features with their weights. */
  topics: Readonly<Record<string, { bias: number; features: readonly (readonly [string, number])[] }>>;
}

export const TITLE_PREFIX = 'title:';

/**
 * Function words, which carry no topic and break a pair. Smaller than the exemplar profiles' STOPWORDS:
 * "model", "large", "data" and "task" make pairs that name topics ("reward model", "large language").
 */
const MODEL_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or of in on for to with by from as at is are be been was were this that these those it its ' +
    'we our their they which who whom whose while where when than then such can could may might will would ' +
    'should also into over under between via using use used based propose proposed paper work show shows ' +
    'shown present however both each all any more most other not only but has have had do does further ' +
    'furthermore moreover through within without across well here there us how what'
  )
    .split(' ')
    .map(foldLower),
);

/** Words that carry a feature: no function word, no bare number, no single letter. */
export function isModelWord(word: string): boolean {
  return word.length >= 2 && !MODEL_STOPWORDS.has(word) && !/^\d+$/.test(word);
}

/** The features of a paper as strings: the reference reading the trainer uses (the engine's is faster). */
export function modelFeatures(title: string, abstract: string): Set<string> {
  const out = new Set<string>();
  const add = (words: readonly string[], inTitle: boolean) => {
    let prev: string | null = null;
    for (const word of words) {
      const ok = isModelWord(word);
      if (ok) {
        out.add(word);
        if (inTitle) out.add(TITLE_PREFIX + word);
        if (prev !== null) out.add(`${prev} ${word}`);
      }
      prev = ok ? word : null;
    }
  };
  add(tokenise(title).lower, true);
  add(tokenise(abstract).lower, false);
  return out;
}

/** How a feature reads in a tag's evidence: “reward model”, or “agent” in the title. */
export function describeFeature(feature: string): string {
  return feature.startsWith(TITLE_PREFIX)
    ? `“${feature.slice(TITLE_PREFIX.length)}” in the title`
    : `“${feature}”`;
}

/** A feature modelFeatures can give: a model word (as tokenise reads it) or two, or a title word. */
function producible(name: string): boolean {
  const bare = name.startsWith(TITLE_PREFIX) ? name.slice(TITLE_PREFIX.length) : name;
  const words = bare.split(' ');
  if (words.length > (bare === name ? 2 : 1)) return false;
  return words.every((w) => isModelWord(w) && tokenise(w).lower.join(' ') === w);
}

const KIND_WORD = 0;
const KIND_TITLE = 1;

/**
 * Scores a paper's words, already read into word ids by the term index, against every topic's model.
 * The model's words are added to the term index's words, so the reading that finds the taxonomy's terms
 * also gives each model word its id and no string is made per word; a pair is found from its first
 * word's short list of second words.
 */
export class TopicModelReader {
  /** Per topic (the compiled taxonomy's order): its log-odds for the last paper read. */
  readonly logit: Float64Array;
  readonly hasModel: Uint8Array;
  private readonly bias: Float64Array;
  /** By word id: the feature of the word anywhere and in the title (-1 none), and its pairs' range. */
  private wordFeature = new Int32Array(0);
  private titleFeature = new Int32Array(0);
  private pairStart = new Int32Array(0);
  private pairEnd = new Int32Array(0);
  private readonly pairSecond: Int32Array;
  private readonly pairFeature: Int32Array;
  /** Per feature: its name and the (topic, weight) entries, as ranges of flat arrays. */
  private readonly names: string[] = [];
  private readonly entryStart: Int32Array;
  private readonly entryTopic: Int32Array;
  private readonly entryWeight: Float64Array;
  /** Features met by the last paper, in reading order (each once: a stamp per feature). */
  private matched = new Int32Array(256);
  private matchedCount = 0;
  private readonly stamp: Int32Array;
  private paper = 0;

  constructor(file: TopicModelFile, slugs: readonly string[], words: TermWords) {
    const topicOf = new Map(slugs.map((s, i) => [s, i]));
    this.logit = new Float64Array(slugs.length);
    this.bias = new Float64Array(slugs.length);
    this.hasModel = new Uint8Array(slugs.length);
    const byFeature = new Map<string, [number, number][]>();
    for (const [slug, model] of Object.entries(file.topics)) {
      const t = topicOf.get(slug);
      if (t === undefined) continue;
      this.hasModel[t] = 1;
      this.bias[t] = model.bias;
      for (const [name, weight] of model.features) {
        if (!producible(name)) continue;
        const list = byFeature.get(name) ?? [];
        list.push([t, weight]);
        byFeature.set(name, list);
      }
    }
    const entries = [...byFeature.values()].reduce((n, l) => n + l.length, 0);
    this.entryStart = new Int32Array(byFeature.size + 1);
    this.entryTopic = new Int32Array(entries);
    this.entryWeight = new Float64Array(entries);
    this.stamp = new Int32Array(byFeature.size);
    const singles: [number, number, number][] = [];
    const pairs: [number, number, number][] = [];
    let e = 0;
    for (const [name, list] of byFeature) {
      const f = this.names.length;
      this.names.push(name);
      this.entryStart[f] = e;
      for (const [t, w] of list) {
        this.entryTopic[e] = t;
        this.entryWeight[e++] = w;
      }
      const space = name.indexOf(' ');
      if (space > 0) pairs.push([words.idOf(name.slice(0, space)), words.idOf(name.slice(space + 1)), f]);
      else if (name.startsWith(TITLE_PREFIX))
        singles.push([words.idOf(name.slice(TITLE_PREFIX.length)), KIND_TITLE, f]);
      else singles.push([words.idOf(name), KIND_WORD, f]);
    }
    this.entryStart[byFeature.size] = e;
    const wordCount = 1 + Math.max(0, ...singles.map((s) => s[0]), ...pairs.map((p) => Math.max(p[0], p[1])));
    this.wordFeature = new Int32Array(wordCount).fill(-1);
    this.titleFeature = new Int32Array(wordCount).fill(-1);
    for (const [id, kind, f] of singles) (kind === KIND_TITLE ? this.titleFeature : this.wordFeature)[id] = f;
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    this.pairStart = new Int32Array(wordCount);
    this.pairEnd = new Int32Array(wordCount);
    this.pairSecond = new Int32Array(pairs.map((p) => p[1]));
    this.pairFeature = new Int32Array(pairs.map((p) => p[2]));
    pairs.forEach(([first], i) => {
      if (this.pairEnd[first] === 0) this.pairStart[first] = i;
      this.pairEnd[first] = i + 1;
    });
  }

  /**
   * Scores the words at [0, titleEnd) (the title) and [titleEnd, end) (the abstract) of `words`. A pair
   * never spans the title and the abstract, and a stopword breaks a pair (isModelWord: a stopword is never
   * a model word, so it has no feature and no pairs).
   */
  read(words: WordBuffer, titleEnd: number, end: number): void {
    this.paper++;
    this.matchedCount = 0;
    this.logit.set(this.bias);
    const ids = words.lowerId;
    const size = this.wordFeature.length;
    let prev = -1;
    for (let i = 0; i < end; i++) {
      if (i === titleEnd) prev = -1;
      const id = ids[i] ?? -1;
      if (id < 0 || id >= size) {
        prev = -1;
        continue;
      }
      this.count(this.wordFeature[id] ?? -1);
      if (i < titleEnd) this.count(this.titleFeature[id] ?? -1);
      if (prev >= 0) {
        for (let k = this.pairStart[prev] ?? 0, stop = this.pairEnd[prev] ?? 0; k < stop; k++)
          if (this.pairSecond[k] === id) this.count(this.pairFeature[k] ?? -1);
      }
      prev = id;
    }
  }

  private count(f: number): void {
    if (f < 0 || this.stamp[f] === this.paper) return;
    this.stamp[f] = this.paper;
    if (this.matchedCount === this.matched.length) {
      const wider = new Int32Array(this.matched.length * 2);
      wider.set(this.matched);
      this.matched = wider;
    }
    this.matched[this.matchedCount++] = f;
    for (let e = this.entryStart[f] ?? 0, stop = this.entryStart[f + 1] ?? 0; e < stop; e++) {
      const t = this.entryTopic[e] ?? 0;
      this.logit[t] = (this.logit[t] ?? 0) + (this.entryWeight[e] ?? 0);
    }
  }

  /** The `k` features of the last paper that raised topic `t`'s log-odds most, with their weights. */
  strongest(t: number, k: number): [string, number][] {
    const out: [string, number][] = [];
    for (let i = 0; i < this.matchedCount; i++) {
      const f = this.matched[i] ?? 0;
      for (let e = this.entryStart[f] ?? 0, stop = this.entryStart[f + 1] ?? 0; e < stop; e++)
        if (this.entryTopic[e] === t && (this.entryWeight[e] ?? 0) > 0)
          out.push([this.names[f] ?? '', this.entryWeight[e] ?? 0]);
    }
    out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return out.slice(0, k);
  }
}
