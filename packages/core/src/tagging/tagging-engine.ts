import type { Taxonomy } from './taxonomy-load.ts';
import type { TopicSpec } from './taxonomy-types.ts';
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
  rule: 'phrase' | 'category' | 'exemplar' | 'exemplar-paper' | 'required' | 'implied';
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
}

const TITLE_BOOST = 1.5;
const DEFAULT_THRESHOLD = 3;
const DEFAULT_EXEMPLAR_WEIGHT = 2;
const PROFILE_SIZE = 40;
/** Profile mass a paper must share for full exemplar credit. */
const PROFILE_FULL = 0.35;

interface CompiledTopic {
  spec: TopicSpec;
  threshold: number;
  requireCount: number;
  exemplarIds: ReadonlySet<string>;
  exemplarWeight: number;
}

interface Accumulator {
  groupTitle: Uint8Array;
  groupCount: Uint16Array;
  /** Where the group's last counted mention ended, in the field being scanned. */
  groupEnd: Int32Array;
  groupTerm: (string | undefined)[];
  required: Uint8Array;
  excluded: boolean;
  profile: number;
}

export class CompiledTaxonomy {
  readonly version: string;
  private readonly topics: CompiledTopic[] = [];
  private readonly index = new TermIndex();
  /** Folded word → [(topic, weight)] for exemplar profiles. */
  private readonly profileIndex = new Map<string, { topic: number; weight: number }[]>();
  private readonly exemplarOf = new Map<string, number[]>();

  constructor(taxonomy: Taxonomy, options: CompileOptions = {}) {
    this.version = taxonomy.version;
    for (const spec of taxonomy.topics) {
      if (options.only && !options.only.has(spec.slug)) continue;
      const t = this.topics.length;
      const def = spec.definition;
      def.phrases.forEach((g, group) =>
        g.terms.forEach((term) => this.index.add(term, { topic: t, role: 'phrase', group, term })),
      );
      (def.requireAll ?? []).forEach((terms, group) =>
        terms.forEach((term) => this.index.add(term, { topic: t, role: 'require', group, term })),
      );
      (def.exclude ?? []).forEach((term) =>
        this.index.add(term, { topic: t, role: 'exclude', group: 0, term }),
      );
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

  /** The topics a paper directly gets, strongest first, with the evidence for each. */
  tag(paper: TaggablePaper): PaperTag[] {
    const acc = new Map<number, Accumulator>();
    const get = (topic: number): Accumulator => {
      let a = acc.get(topic);
      if (!a) {
        const groups = this.topics[topic]?.spec.definition.phrases.length ?? 0;
        a = {
          groupTitle: new Uint8Array(groups),
          groupCount: new Uint16Array(groups),
          groupEnd: new Int32Array(groups).fill(-1),
          groupTerm: new Array<string | undefined>(groups),
          required: new Uint8Array(this.topics[topic]?.requireCount ?? 0),
          excluded: false,
          profile: 0,
        };
        acc.set(topic, a);
      }
      return a;
    };
    const onHit = (inTitle: boolean) => (hit: TermHit) => {
      const a = get(hit.ref.topic);
      if (hit.ref.role === 'exclude') a.excluded = true;
      else if (hit.ref.role === 'require') a.required[hit.ref.group] = 1;
      else {
        const g = hit.ref.group;
        // Overlapping or adjacent hits of one group are one mention: "multi-agent debate" also holds
        // "multi-agent", and "Vision-Language-Action (VLA)" names the same thing twice.
        const last = a.groupEnd[g] ?? -1;
        if (last < 0 || hit.start > last) a.groupCount[g] = (a.groupCount[g] ?? 0) + 1;
        a.groupEnd[g] = Math.max(last, hit.end);
        if (inTitle) a.groupTitle[g] = 1;
        if (a.groupTerm[g] === undefined || inTitle) a.groupTerm[g] = hit.ref.term;
      }
    };
    const title = tokenise(paper.title);
    const abstract = tokenise(paper.abstract);
    this.index.scan(title.lower, title.exact, onHit(true));
    for (const a of acc.values()) a.groupEnd.fill(-1);
    this.index.scan(abstract.lower, abstract.exact, onHit(false));
    if (this.profileIndex.size > 0) {
      const seen = new Set<string>();
      for (const word of [...title.lower, ...abstract.lower]) {
        if (seen.has(word)) continue;
        seen.add(word);
        const entries = this.profileIndex.get(word);
        if (entries) for (const e of entries) get(e.topic).profile += e.weight;
      }
    }

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

  private score(topic: CompiledTopic, a: Accumulator, paper: TaggablePaper): PaperTag | null {
    if (a.excluded || !a.required.every((r) => r === 1)) return null;
    const evidence: TagEvidence[] = [];
    let score = 0;
    topic.spec.definition.phrases.forEach((group, g) => {
      const count = a.groupCount[g] ?? 0;
      if (count === 0) return;
      const inTitle = a.groupTitle[g] === 1;
      const repeat = Math.min(1.5, 1 + 0.25 * (count - 1));
      const points = group.weight * (inTitle ? TITLE_BOOST : 1) * repeat;
      score += points;
      evidence.push({
        rule: 'phrase',
        detail: a.groupTerm[g] ?? '',
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
    if (a.profile > 0) {
      const points = topic.exemplarWeight * Math.min(1, a.profile / PROFILE_FULL);
      if (points >= 0.1) {
        score += points;
        evidence.push({
          rule: 'exemplar',
          detail: `shares ${Math.round(a.profile * 100)}% of the exemplars' distinctive words`,
          points: round(points),
        });
      }
    }
    if (topic.requireCount > 0 && score > 0) {
      evidence.push({ rule: 'required', detail: 'every required concept is present', points: 0 });
    }
    if (score < topic.threshold) return null;
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
