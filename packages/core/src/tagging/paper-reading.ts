import { ROLE_WEIGHT, roleOf, sentenceBounds } from './sentence-roles.ts';
import { formAt, Hits, type TermIndex, type TermRole } from './term-index.ts';
import { WordBuffer } from './term-words.ts';

/**
 * What reading one paper against every term leaves per topic: which phrase groups were mentioned, where
 * and how often, which required concepts met where, exclusions, homonym spans and the exemplar profile.
 *
 * Speed: the state of every topic lives in flat typed arrays (a topic's phrase groups and required groups
 * are ranges of them), reset only for the topics a paper touches (a stamp per topic says whether it was
 * touched by this paper), so reading a paper allocates almost nothing.
 */
export const PLAIN = ROLE_WEIGHT.plain;

const ROLE_CODE: Readonly<Record<TermRole, number>> = { phrase: 0, require: 1, exclude: 2, mask: 3 };
const REQUIRE = ROLE_CODE.require;
const EXCLUDE = ROLE_CODE.exclude;
const MASK = ROLE_CODE.mask;
/** Required concepts are located in the title or in one of the first 32 sentences (a bit each). */
const SENTENCE_BITS = 32;

export interface ReadingShape {
  /** Phrase groups and requireAll groups of each compiled topic. */
  groups: readonly number[];
  required: readonly number[];
  /** Exemplar profile words: folded word → (topic, weight). */
  profile: ReadonlyMap<string, readonly { topic: number; weight: number }[]>;
}

export class PaperReading {
  /** The topics the last paper touched, in touch order: `touched[0, touchedCount)`. */
  readonly touched: Int32Array;
  touchedCount = 0;
  /** Where each topic's phrase groups and required groups start in the per-group arrays. */
  readonly groupBase: Int32Array;
  readonly requireBase: Int32Array;

  // Per topic.
  readonly excluded: Uint8Array;
  /** A bridging phrase ("agentic RL") was read in the title or a plain sentence. */
  readonly bridged: Uint8Array;
  /** A specific term was read with at least a contrast sentence's weight. */
  readonly specific: Uint8Array;
  /** The first term read with some weight (a term id, -1 none), and whether a different one was too. */
  readonly firstTerm: Int32Array;
  readonly twoTerms: Uint8Array;
  /** The span of the homonym phrases read in a unit (see TopicDefinition.mask), and which unit. */
  readonly maskStart: Int32Array;
  readonly maskEnd: Int32Array;
  readonly maskUnit: Int32Array;
  readonly profile: Float64Array;

  // Per phrase group.
  readonly groupTitle: Uint8Array;
  readonly groupCount: Uint16Array;
  /**
   * The best sentence weight a group was mentioned with in the abstract. Float64, so a weight reads back
   * exactly: in 32 bits a background sentence's 0.6 became 0.6000000238…, which is no role's weight, so
   * its evidence lost the role's note and the calibration's weak-sentence feature never fired for it.
   */
  readonly groupBest: Float64Array;
  /** Where the group's last counted mention ended, and in which unit (so no reset is needed per unit). */
  readonly groupEnd: Int32Array;
  readonly groupEndUnit: Int32Array;
  /** The term shown as the group's evidence (a term id, -1 none). */
  readonly groupTerm: Int32Array;

  // Per requireAll group: met in the title, and a bit per plain sentence it was met in.
  readonly requiredTitle: Uint8Array;
  readonly requiredSentences: Int32Array;

  // Each ref of the index, flattened: its topic, role, group slot (in the per-group arrays) and term.
  private readonly refTopic: Int32Array;
  private readonly refRole: Uint8Array;
  private readonly refSlot: Int32Array;
  private readonly refTerm: Int32Array;
  private readonly refSpecific: Uint8Array;
  private readonly refBridges: Uint8Array;
  /** Term ids → the term as written, for evidence. */
  readonly terms: readonly string[];

  private readonly stamp: Int32Array;
  private paper = 0;
  private readonly hits = new Hits();
  private readonly seen = new Set<string>();
  /** The last paper's words: the title's at [0, titleEnd), the abstract's at [titleEnd, wordEnd). */
  readonly words = new WordBuffer();
  titleEnd = 0;
  wordEnd = 0;

  constructor(
    private readonly index: TermIndex,
    private readonly shape: ReadingShape,
  ) {
    const topics = shape.groups.length;
    this.groupBase = prefixSums(shape.groups);
    this.requireBase = prefixSums(shape.required);
    const groups = this.groupBase[topics] ?? 0;
    const required = this.requireBase[topics] ?? 0;
    this.touched = new Int32Array(topics);
    this.stamp = new Int32Array(topics);
    this.excluded = new Uint8Array(topics);
    this.bridged = new Uint8Array(topics);
    this.specific = new Uint8Array(topics);
    this.firstTerm = new Int32Array(topics);
    this.twoTerms = new Uint8Array(topics);
    this.maskStart = new Int32Array(topics);
    this.maskEnd = new Int32Array(topics);
    this.maskUnit = new Int32Array(topics);
    this.profile = new Float64Array(topics);
    this.groupTitle = new Uint8Array(groups);
    this.groupCount = new Uint16Array(groups);
    this.groupBest = new Float64Array(groups);
    this.groupEnd = new Int32Array(groups);
    this.groupEndUnit = new Int32Array(groups);
    this.groupTerm = new Int32Array(groups);
    this.requiredTitle = new Uint8Array(required);
    this.requiredSentences = new Int32Array(required);

    const refs = index.refs;
    this.refTopic = new Int32Array(refs.length);
    this.refRole = new Uint8Array(refs.length);
    this.refSlot = new Int32Array(refs.length);
    this.refTerm = new Int32Array(refs.length);
    this.refSpecific = new Uint8Array(refs.length);
    this.refBridges = new Uint8Array(refs.length);
    const termIds = new Map<string, number>();
    refs.forEach((ref, r) => {
      let term = termIds.get(ref.term);
      if (term === undefined) termIds.set(ref.term, (term = termIds.size));
      this.refTopic[r] = ref.topic;
      this.refRole[r] = ROLE_CODE[ref.role];
      const base = ref.role === 'require' ? this.requireBase : this.groupBase;
      this.refSlot[r] = (base[ref.topic] ?? 0) + ref.group;
      this.refTerm[r] = term;
      this.refSpecific[r] = ref.specific === true ? 1 : 0;
      this.refBridges[r] = ref.bridges === true ? 1 : 0;
    });
    this.terms = [...termIds.keys()];
  }

  /** Reads the title and each sentence of the abstract; the result is in the arrays until the next read. */
  read(title: string, abstract: string): void {
    this.paper++;
    this.touchedCount = 0;
    const words = this.words;
    const titleEnd = this.index.words.read(title, 0, title.length, words, 0);
    if (this.scan(title, 0, titleEnd)) this.absorb(-1, PLAIN);
    if (this.shape.profile.size > 0) this.readProfile(title, 0, titleEnd, true);
    const bounds = sentenceBounds(abstract);
    let end = titleEnd;
    for (let k = 0; k < bounds.length; k += 2) {
      const from = bounds[k] ?? 0;
      const to = bounds[k + 1] ?? 0;
      const start = end;
      end = this.index.words.read(abstract, from, to, words, start);
      // A sentence's role is read only when some term was met in it: most sentences meet none.
      if (this.scan(abstract, start, end)) this.absorb(k / 2, ROLE_WEIGHT[roleOf(abstract.slice(from, to))]);
    }
    if (this.shape.profile.size > 0) this.readProfile(abstract, titleEnd, end, false);
    this.titleEnd = titleEnd;
    this.wordEnd = end;
  }

  /** An exclusion of topic `t` was read in the last paper. */
  isExcluded(t: number): boolean {
    return this.stamp[t] === this.paper && this.excluded[t] === 1;
  }

  /** Finds the term occurrences in words[from, to); true when there are some. */
  private scan(text: string, from: number, to: number): boolean {
    this.hits.length = 0;
    this.index.scan(text, this.words, from, to, this.hits);
    return this.hits.length > 0;
  }

  /** Counts the hits just found in a unit: the title (-1) or a sentence of the abstract, read with `weight`. */
  private absorb(unit: number, weight: number): void {
    const { ref, start, end, length: n } = this.hits;
    // Homonym phrases first: a hit inside one must not count, whatever order the hits came in.
    for (let i = 0; i < n; i++) {
      const r = ref[i] ?? 0;
      if (this.refRole[r] !== MASK) continue;
      const t = this.refTopic[r] ?? 0;
      this.touch(t);
      const s = start[i] ?? 0;
      const e = end[i] ?? 0;
      if (this.maskUnit[t] !== unit) {
        this.maskUnit[t] = unit;
        this.maskStart[t] = s;
        this.maskEnd[t] = e;
      } else {
        this.maskStart[t] = Math.min(this.maskStart[t] ?? 0, s);
        this.maskEnd[t] = Math.max(this.maskEnd[t] ?? 0, e);
      }
    }
    for (let i = 0; i < n; i++) this.hit(ref[i] ?? 0, start[i] ?? 0, end[i] ?? 0, unit, weight);
  }

  private hit(r: number, start: number, end: number, unit: number, weight: number): void {
    const t = this.refTopic[r] ?? 0;
    this.touch(t);
    const role = this.refRole[r];
    if (role === EXCLUDE) {
      this.excluded[t] = 1;
      return;
    }
    if (role === MASK) return;
    // A homonym phrase starting at or before this hit and reaching into it.
    if (this.maskUnit[t] === unit && start >= (this.maskStart[t] ?? 0) && start < (this.maskEnd[t] ?? 0))
      return;
    const g = this.refSlot[r] ?? 0;
    if (role === REQUIRE) {
      if (unit < 0) this.requiredTitle[g] = 1;
      else if (weight >= PLAIN && unit < SENTENCE_BITS)
        this.requiredSentences[g] = (this.requiredSentences[g] ?? 0) | (1 << unit);
      return;
    }
    if (weight <= 0) return;
    // Overlapping or adjacent hits of one group are one mention: "multi-agent debate" also holds
    // "multi-agent", and "Vision-Language-Action (VLA)" names the same thing twice.
    const last = this.groupEndUnit[g] === unit ? (this.groupEnd[g] ?? -1) : -1;
    if (last < 0 || start > last) this.groupCount[g] = (this.groupCount[g] ?? 0) + 1;
    this.groupEnd[g] = Math.max(last, end);
    this.groupEndUnit[g] = unit;
    if (unit < 0) this.groupTitle[g] = 1;
    else this.groupBest[g] = Math.max(this.groupBest[g] ?? 0, weight);
    const term = this.refTerm[r] ?? 0;
    if (this.groupTerm[g] === -1 || unit < 0) this.groupTerm[g] = term;
    if (this.firstTerm[t] === -1) this.firstTerm[t] = term;
    else if (this.firstTerm[t] !== term) this.twoTerms[t] = 1;
    if (this.refSpecific[r] === 1 && weight >= ROLE_WEIGHT.contrast) this.specific[t] = 1;
    if (this.refBridges[r] === 1 && weight >= PLAIN) this.bridged[t] = 1;
  }

  /** Each distinct word once, in reading order, adds its weight in the profiles that hold it. */
  private readProfile(text: string, from: number, to: number, first: boolean): void {
    if (first) this.seen.clear();
    const seen = this.seen;
    for (let i = from; i < to; i++) {
      const word = formAt(text, this.words, i, 0);
      if (seen.has(word)) continue;
      seen.add(word);
      const entries = this.shape.profile.get(word);
      if (!entries) continue;
      for (const e of entries) {
        this.touch(e.topic);
        this.profile[e.topic] = (this.profile[e.topic] ?? 0) + e.weight;
      }
    }
  }

  /** The first touch of a topic by a paper resets its state. */
  private touch(t: number): void {
    if (this.stamp[t] === this.paper) return;
    this.stamp[t] = this.paper;
    this.touched[this.touchedCount++] = t;
    this.excluded[t] = 0;
    this.bridged[t] = 0;
    this.specific[t] = 0;
    this.firstTerm[t] = -1;
    this.twoTerms[t] = 0;
    this.maskStart[t] = 0;
    this.maskEnd[t] = -1;
    this.maskUnit[t] = -2;
    this.profile[t] = 0;
    for (let g = this.groupBase[t] ?? 0, end = this.groupBase[t + 1] ?? 0; g < end; g++) {
      this.groupTitle[g] = 0;
      this.groupCount[g] = 0;
      this.groupBest[g] = 0;
      this.groupEndUnit[g] = -2;
      this.groupTerm[g] = -1;
    }
    for (let g = this.requireBase[t] ?? 0, end = this.requireBase[t + 1] ?? 0; g < end; g++) {
      this.requiredTitle[g] = 0;
      this.requiredSentences[g] = 0;
    }
  }
}

function prefixSums(counts: readonly number[]): Int32Array {
  const sums = new Int32Array(counts.length + 1);
  counts.forEach((n, i) => (sums[i + 1] = (sums[i] ?? 0) + n));
  return sums;
}
