import type { Taxonomy } from './taxonomy-load.ts';
import type { TopicSpec } from './taxonomy-types.ts';
import { ROLE_NOTE, ROLE_WEIGHT, sentencesOf } from './sentence-roles.ts';
import { defaultCalibration, isDefault } from './default-taxonomy.ts';
import type { Calibration } from './tag-calibration.ts';
import { TagSelection } from './tag-selection.ts';
import { TermIndex, type TermHit } from './term-index.ts';
import { STOPWORDS, tokenise } from './tokenise.ts';

/**
 * The tagging engine: deterministic, explainable scoring of a paper against every topic.
 *
 * Why rules rather than a learned classifier: the taxonomy must be readable and editable by a group, run
 * offline in the browser with no model download, explain every tag, and be fast enough to tag the corpus
 * in a few seconds. Weighted synonym groups with co-occurrence gates, exclusions, category priors and an
 * exemplar term profile reach the precision targets on the labelled set (see `pnpm eval tagging`).
 *
 * Score of a topic = Σ over matched phrase groups of weight × (1.5 if matched in the title) × (1 + 0.25 per
 * extra abstract mention, at most ×1.5) + category prior (only when some phrase matched) + exemplar-profile
 * similarity × exemplarWeight. A requireAll group that does not match, or any exclusion, makes it 0.
 */
export interface TagEvidence {
  rule: 'phrase' | 'category' | 'exemplar' | 'exemplar-paper' | 'required' | 'implied' | 'confidence';
  /** The term, category or exemplar description. */
  detail: string;
  field?: 'title' | 'abstract';
  points: number;
}

export interface PaperTag {
  slug: string;
  score: number;
  evidence: TagEvidence[];
}

export interface TaggablePaper {
  id: string;
  title: string;
  abstract: string;
  categories: readonly string[];
}

export interface CompileOptions {
  /** Title and abstract of exemplar papers, by id; exemplars not given here only tag themselves. */
  exemplarTexts?: ReadonlyMap<string, { title: string; abstract: string }>;
  /** Document frequency per folded word over the corpus, to weigh exemplar words by how distinctive they are. */
  docFreq?: ReadonlyMap<string, number>;
  docCount?: number;
  /** Tag only these topics (for re-tagging changed definitions); default all. */
  only?: ReadonlySet<string>;
  /** Calibrated confidence for choosing a paper's tags; the default taxonomy's own when left out. */
  calibration?: Calibration | null;
}

const TITLE_BOOST = 1.5;
const DEFAULT_THRESHOLD = 3;
const DEFAULT_EXEMPLAR_WEIGHT = 2;
const PROFILE_SIZE = 40;
/** Profile mass a paper must share for full exemplar credit. */
const PROFILE_FULL = 0.35;
/** Exemplar points that count as a second piece of evidence beside a single generic word. */
const MIN_EXEMPLAR_SUPPORT = 1;

interface CompiledTopic {
  spec: TopicSpec;
  threshold: number;
  requireCount: number;
  exemplarIds: ReadonlySet<string>;
  exemplarWeight: number;
}

/** Where a mention was read: the title, or a sentence of the abstract with its role's weight. */
interface Unit {
  /** -1 for the title, else the sentence's index. */
  index: number;
  weight: number;
}

interface Accumulator {
  groupTitle: Uint8Array;
  groupCount: Uint16Array;
  /** The best sentence weight a group was mentioned with in the abstract. */
  groupBest: Float32Array;
  /** Where the group's last counted mention ended, and in which unit (so no reset is needed per unit). */
  groupEnd: Int32Array;
  groupEndUnit: Int32Array;
  groupTerm: (string | undefined)[];
  /** Per requireAll group: met in the title, and a bit per plain sentence it was met in (the first 32). */
  requiredTitle: Uint8Array;
  requiredSentences: Uint32Array;
  /** A bridging phrase ("agentic RL") was read in the title or a plain sentence. */
  bridged: boolean;
  /** The first term read with some weight; whether a different one was read too; whether one is specific. */
  firstTerm: string | undefined;
  twoTerms: boolean;
  specific: boolean;
  excluded: boolean;
  /** The span of the homonym phrases read in a unit (see TopicDefinition.mask), and which unit. */
  maskStart: number;
  maskEnd: number;
  maskUnit: number;
  profile: number;
}

const PLAIN = ROLE_WEIGHT.plain;
const ROLE_BY_WEIGHT = new Map(
  (Object.keys(ROLE_WEIGHT) as (keyof typeof ROLE_WEIGHT)[]).map((role) => [ROLE_WEIGHT[role], role]),
);

function resetAccumulator(a: Accumulator): void {
  a.groupTitle.fill(0);
  a.groupCount.fill(0);
  a.groupBest.fill(0);
  a.groupEndUnit.fill(-2);
  a.groupTerm.fill(undefined);
  a.requiredTitle.fill(0);
  a.requiredSentences.fill(0);
  a.bridged = false;
  a.firstTerm = undefined;
  a.twoTerms = false;
  a.specific = false;
  a.excluded = false;
  a.maskStart = 0;
  a.maskEnd = -1;
  a.maskUnit = -2;
  a.profile = 0;
}

function isSpecific(term: string): boolean {
  const bare = term.replace(/\*$/, '').trim();
  // "vision-language-action" is specific; "fine-tuning" or "multi-agent" is one generic word.
  return /\s/.test(bare) || bare !== bare.toLowerCase() || bare.split(/[-/]/).length >= 3;
}

export class CompiledTaxonomy {
  readonly version: string;
  private readonly topics: CompiledTopic[] = [];
  private readonly index = new TermIndex();
  /** Folded word → [(topic, weight)] for exemplar profiles. */
  private readonly profileIndex = new Map<string, { topic: number; weight: number }[]>();
  private readonly exemplarOf = new Map<string, number[]>();
  private readonly fallbackBy = new Map<string, CompiledTopic>();
  private readonly spare: (Accumulator | undefined)[] = [];
  /** Null when compiled for some topics only: choosing among tags needs them all. */
  private readonly selection: TagSelection | null;

  constructor(taxonomy: Taxonomy, options: CompileOptions = {}) {
    this.version = taxonomy.version;
    const calibration =
      options.calibration !== undefined
        ? options.calibration
        : isDefault(taxonomy)
          ? defaultCalibration()
          : null;
    this.selection = options.only ? null : new TagSelection(taxonomy, calibration);
    for (const spec of taxonomy.topics) {
      if (options.only && !options.only.has(spec.slug)) continue;
      const t = this.topics.length;
      const def = spec.definition;
      def.phrases.forEach((g, group) =>
        g.terms.forEach((term) =>
          this.index.add(term, {
            topic: t,
            role: 'phrase',
            group,
            term,
            specific: isSpecific(term),
            bridges: g.bridges === true,
          }),
        ),
      );
      (def.requireAll ?? []).forEach((terms, group) =>
        terms.forEach((term) => this.index.add(term, { topic: t, role: 'require', group, term })),
      );
      (def.exclude ?? []).forEach((term) =>
        this.index.add(term, { topic: t, role: 'exclude', group: 0, term }),
      );
      (def.mask ?? []).forEach((term) => this.index.add(term, { topic: t, role: 'mask', group: 0, term }));
      const exemplarIds = new Set(def.exemplars ?? []);
      for (const id of exemplarIds) this.exemplarOf.set(id, [...(this.exemplarOf.get(id) ?? []), t]);
      this.topics.push({
        spec,
        threshold: def.threshold ?? DEFAULT_THRESHOLD,
        requireCount: def.requireAll?.length ?? 0,
        exemplarIds,
        exemplarWeight: def.exemplarWeight ?? DEFAULT_EXEMPLAR_WEIGHT,
      });
      this.addProfile(t, [...exemplarIds], options);
      const compiled = this.topics[t];
      for (const category of def.fallbackCategories ?? [])
        if (compiled) this.fallbackBy.set(category, compiled);
    }
  }

  get topicCount(): number {
    return this.topics.length;
  }

  /** Distinctive words of the exemplars (tf·idf, stopwords out), normalised to sum 1. */
  private addProfile(topic: number, ids: string[], options: CompileOptions): void {
    const texts = ids.map((id) => options.exemplarTexts?.get(id)).filter((t) => t !== undefined);
    if (texts.length === 0) return;
    const tf = new Map<string, number>();
    for (const text of texts) {
      for (const word of new Set(tokenise(`${text.title} ${text.abstract}`).lower)) {
        if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
        tf.set(word, (tf.get(word) ?? 0) + 1);
      }
    }
    const docCount = options.docCount ?? 0;
    const scored = [...tf].map(([word, n]) => {
      const df = options.docFreq?.get(word) ?? 1;
      const idf = docCount > 0 ? Math.log((docCount + 1) / (df + 1)) : 1;
      return { word, weight: n * idf };
    });
    scored.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1));
    const top = scored.slice(0, PROFILE_SIZE).filter((s) => s.weight > 0);
    const sum = top.reduce((s, x) => s + x.weight, 0);
    for (const { word, weight } of top) {
      const list = this.profileIndex.get(word) ?? [];
      list.push({ topic, weight: weight / sum });
      this.profileIndex.set(word, list);
    }
  }

  /**
   * The topics a paper directly gets, with the evidence for each: its most specific, best-supported
   * tags, strongest first (see TagSelection). Compiled with `only`, every topic of those that passes
   * is returned, unselected: the caller re-tags the papers it touches with the whole taxonomy.
   */
  tag(paper: TaggablePaper): PaperTag[] {
    const passing = this.passing(paper);
    if (!this.selection) return passing;
    if (passing.length === 0) return this.fallback(paper);
    return this.selection.choose(passing);
  }

  /** The broad topic of the paper's primary category, for a paper no topic fits (see fallbackCategories). */
  private fallback(paper: TaggablePaper): PaperTag[] {
    const primary = paper.categories[0];
    if (primary === undefined) return [];
    const topic = this.fallbackBy.get(primary);
    if (!topic) return [];
    const detail = `listed first in ${primary}, and no narrower topic fits`;
    return [
      {
        slug: topic.spec.slug,
        score: topic.threshold,
        evidence: [{ rule: 'category', detail, points: topic.threshold }],
      },
    ];
  }

  /** Every topic whose score reaches its threshold, strongest first. */
  passing(paper: TaggablePaper): PaperTag[] {
    const acc = this.read(paper);
    const tags: PaperTag[] = [];
    for (const [t, a] of acc) {
      const topic = this.topics[t];
      if (!topic) continue;
      const tag = this.score(topic, a, paper);
      if (tag) tags.push(tag);
    }
    for (const t of this.exemplarOf.get(paper.id) ?? []) {
      const topic = this.topics[t];
      if (!topic || tags.some((x) => x.slug === topic.spec.slug)) continue;
      tags.push({
        slug: topic.spec.slug,
        score: topic.threshold,
        evidence: [
          { rule: 'exemplar-paper', detail: 'listed as an exemplar of this topic', points: topic.threshold },
        ],
      });
    }
    return tags.sort((x, y) => y.score - x.score || (x.slug < y.slug ? -1 : 1));
  }

  /** Reads the title and each sentence of the abstract against every term of the taxonomy. */
  private read(paper: TaggablePaper): Map<number, Accumulator> {
    const acc = new Map<number, Accumulator>();
    // Accumulators are kept per topic and reset on first use for each paper: tagging a corpus otherwise
    // allocates (and collects) a few typed arrays for every topic every paper touches.
    const get = (topic: number): Accumulator => {
      let a = acc.get(topic);
      if (!a) {
        a = this.spare[topic] ?? this.newAccumulator(topic);
        this.spare[topic] = a;
        resetAccumulator(a);
        acc.set(topic, a);
      }
      return a;
    };
    let unit: Unit = { index: -1, weight: PLAIN };
    const onHit = (hit: TermHit) => {
      const a = get(hit.ref.topic);
      const inTitle = unit.index < 0;
      if (hit.ref.role === 'exclude') {
        a.excluded = true;
        return;
      }
      if (hit.ref.role === 'mask') return;
      // A homonym phrase starting at or before this hit and reaching into it.
      if (a.maskUnit === unit.index && hit.start >= a.maskStart && hit.start < a.maskEnd) return;
      if (hit.ref.role === 'require') {
        if (inTitle) a.requiredTitle[hit.ref.group] = 1;
        else if (unit.weight >= PLAIN && unit.index < 32) {
          a.requiredSentences[hit.ref.group] = (a.requiredSentences[hit.ref.group] ?? 0) | (1 << unit.index);
        }
        return;
      }
      if (unit.weight <= 0) return;
      const g = hit.ref.group;
      // Overlapping or adjacent hits of one group are one mention: "multi-agent debate" also holds
      // "multi-agent", and "Vision-Language-Action (VLA)" names the same thing twice.
      const last = a.groupEndUnit[g] === unit.index ? (a.groupEnd[g] ?? -1) : -1;
      if (last < 0 || hit.start > last) a.groupCount[g] = (a.groupCount[g] ?? 0) + 1;
      a.groupEnd[g] = Math.max(last, hit.end);
      a.groupEndUnit[g] = unit.index;
      if (inTitle) a.groupTitle[g] = 1;
      else a.groupBest[g] = Math.max(a.groupBest[g] ?? 0, unit.weight);
      if (a.groupTerm[g] === undefined || inTitle) a.groupTerm[g] = hit.ref.term;
      if (a.firstTerm === undefined) a.firstTerm = hit.ref.term;
      else if (a.firstTerm !== hit.ref.term) a.twoTerms = true;
      if (hit.ref.specific && unit.weight >= ROLE_WEIGHT.contrast) a.specific = true;
      if (hit.ref.bridges && unit.weight >= PLAIN) a.bridged = true;
    };
    const hits: TermHit[] = [];
    const collect = (hit: TermHit) => hits.push(hit);
    const scan = (text: string, at: Unit) => {
      unit = at;
      const tokens = tokenise(text);
      hits.length = 0;
      this.index.scan(tokens.lower, tokens.exact, collect);
      // Homonym phrases first: a hit inside one must not count, whatever order the hits came in.
      for (const hit of hits) {
        if (hit.ref.role !== 'mask') continue;
        const a = get(hit.ref.topic);
        if (a.maskUnit !== unit.index) {
          a.maskUnit = unit.index;
          a.maskStart = hit.start;
          a.maskEnd = hit.end;
        } else {
          a.maskStart = Math.min(a.maskStart, hit.start);
          a.maskEnd = Math.max(a.maskEnd, hit.end);
        }
      }
      for (const hit of hits) onHit(hit);
      return tokens;
    };
    const title = scan(paper.title, { index: -1, weight: PLAIN });
    const words: string[][] = [title.lower];
    sentencesOf(paper.abstract).forEach((sentence, index) => {
      words.push(scan(sentence.text, { index, weight: ROLE_WEIGHT[sentence.role] }).lower);
    });
    if (this.profileIndex.size > 0) {
      const seen = new Set<string>();
      for (const list of words) {
        for (const word of list) {
          if (seen.has(word)) continue;
          seen.add(word);
          const entries = this.profileIndex.get(word);
          if (entries) for (const e of entries) get(e.topic).profile += e.weight;
        }
      }
    }
    return acc;
  }

  private newAccumulator(topic: number): Accumulator {
    const groups = this.topics[topic]?.spec.definition.phrases.length ?? 0;
    const required = this.topics[topic]?.requireCount ?? 0;
    return {
      groupTitle: new Uint8Array(groups),
      groupCount: new Uint16Array(groups),
      groupBest: new Float32Array(groups),
      groupEnd: new Int32Array(groups),
      groupEndUnit: new Int32Array(groups),
      groupTerm: new Array<string | undefined>(groups),
      requiredTitle: new Uint8Array(required),
      requiredSentences: new Uint32Array(required),
      bridged: false,
      firstTerm: undefined,
      twoTerms: false,
      specific: false,
      excluded: false,
      maskStart: 0,
      maskEnd: -1,
      maskUnit: -2,
      profile: 0,
    };
  }

  /** The required concepts meet locally: all in the title, or each in the title or one plain sentence. */
  private requiredMet(topic: CompiledTopic, a: Accumulator): boolean {
    if (topic.requireCount === 0 || a.bridged) return true;
    if (a.requiredTitle.every((r) => r === 1)) return true;
    // The sentences where every group not already in the title was met: one is enough.
    let shared = 0xffffffff;
    for (let g = 0; g < topic.requireCount; g++) {
      if (a.requiredTitle[g] !== 1) shared &= a.requiredSentences[g] ?? 0;
    }
    return shared !== 0;
  }

  private score(topic: CompiledTopic, a: Accumulator, paper: TaggablePaper): PaperTag | null {
    if (a.excluded || !this.requiredMet(topic, a)) return null;
    const evidence: TagEvidence[] = [];
    let score = 0;
    topic.spec.definition.phrases.forEach((group, g) => {
      const count = a.groupCount[g] ?? 0;
      if (count === 0) return;
      const inTitle = a.groupTitle[g] === 1;
      const best = a.groupBest[g] ?? 0;
      const repeat = Math.min(1.5, 1 + 0.25 * (count - 1));
      const points = group.weight * (inTitle ? TITLE_BOOST : best) * repeat;
      score += points;
      const note = inTitle || best >= PLAIN ? '' : ROLE_NOTE[ROLE_BY_WEIGHT.get(best) ?? 'plain'];
      evidence.push({
        rule: 'phrase',
        detail: note ? `${a.groupTerm[g] ?? ''} (${note}, ×${best})` : (a.groupTerm[g] ?? ''),
        field: inTitle ? 'title' : 'abstract',
        points: round(points),
      });
    });
    if (score > 0) {
      for (const [category, prior] of Object.entries(topic.spec.definition.categoryPriors ?? {})) {
        if (!paper.categories.includes(category)) continue;
        score += prior;
        evidence.push({ rule: 'category', detail: category, points: prior });
        break;
      }
    }
    let exemplarPoints = 0;
    if (a.profile > 0) {
      const points = topic.exemplarWeight * Math.min(1, a.profile / PROFILE_FULL);
      if (points >= 0.1) {
        exemplarPoints = points;
        score += points;
        evidence.push({
          rule: 'exemplar',
          detail: `shares ${Math.round(a.profile * 100)}% of the exemplars' distinctive words`,
          points: round(points),
        });
      }
    }
    // One generic word ("mesh", "physics", "aggregation"), however often repeated, never carries a tag.
    const supported =
      topic.spec.definition.singleWordSuffices === true ||
      a.specific ||
      a.twoTerms ||
      exemplarPoints >= MIN_EXEMPLAR_SUPPORT;
    if (!supported || score < topic.threshold) return null;
    if (topic.requireCount > 0) {
      evidence.push({
        rule: 'required',
        detail: a.bridged
          ? 'one phrase names every required concept'
          : 'the required concepts meet in the title or one sentence',
        points: 0,
      });
    }
    return { slug: topic.spec.slug, score: round(score), evidence };
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

export function compileTaxonomy(taxonomy: Taxonomy, options: CompileOptions = {}): CompiledTaxonomy {
  return new CompiledTaxonomy(taxonomy, options);
}

/** Document frequency of every folded word over `papers`, for exemplar profiles. */
export function documentFrequencies(papers: Iterable<{ title: string; abstract: string }>): {
  docFreq: Map<string, number>;
  docCount: number;
} {
  const docFreq = new Map<string, number>();
  let docCount = 0;
  for (const p of papers) {
    docCount += 1;
    for (const word of new Set(tokenise(`${p.title} ${p.abstract}`).lower))
      docFreq.set(word, (docFreq.get(word) ?? 0) + 1);
  }
  return { docFreq, docCount };
}

/** What exemplar profiles need from a paper collection: exemplar texts and word frequencies. */
export function collectionStats(taxonomy: Taxonomy, papers: readonly TaggablePaper[]): CompileOptions {
  const wanted = new Set(taxonomy.topics.flatMap((t) => t.definition.exemplars ?? []));
  const exemplarTexts = new Map(papers.filter((p) => wanted.has(p.id)).map((p) => [p.id, p]));
  return { exemplarTexts, ...documentFrequencies(papers) };
}

/**
 * Compiles a taxonomy against a paper collection: its exemplar texts and word frequencies come from the
 * collection (the server's store, or the papers a browser holds).
 */
export function compileForCollection(
  taxonomy: Taxonomy,
  papers: readonly TaggablePaper[],
  only?: ReadonlySet<string>,
): CompiledTaxonomy {
  return new CompiledTaxonomy(taxonomy, { ...collectionStats(taxonomy, papers), ...(only ? { only } : {}) });
}
