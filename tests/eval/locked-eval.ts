import type { TaggablePaper, Taxonomy } from '@quire/core';
import { EVAL_TOPICS } from './eval-topics.ts';
import { formatInterval, wilson } from './interval.ts';
import { conceptPattern, coreConcepts, namesConcept, seededRandom } from './recall-pools.ts';

/**
 * Figures on the locked test set (locked-set.jsonl; see LOCKED-SET.md): judged blind before any engine
 * change and never printed item by item. Only aggregates leave this module.
 */

export interface LockedJudgment {
  /** precision: a uniform paper's candidate topic; recall: a pool paper for one topic; shared: the slice
   * every precision judge labelled, for agreement. */
  set: 'precision' | 'recall' | 'shared';
  paper: string;
  topic: string;
  label: boolean;
  borderline?: boolean;
  why?: string;
  judge: string;
}

export interface Predictions {
  /** The engine's direct tags, as the card shows them (most specific first). */
  direct(paper: TaggablePaper): readonly string[];
  /** Direct tags and the broader topics they imply. */
  all(paper: TaggablePaper): ReadonlySet<string>;
}

const TARGET_PRECISION = 0.9;
const TARGET_RECALL = 0.85;
const round3 = (n: number) => (Number.isNaN(n) ? null : Number(n.toFixed(3)));

/** One label per (set kind, paper, topic): the majority of judges where several judged it; a tie is out. */
export function consensus(judgments: readonly LockedJudgment[]): Map<string, boolean> {
  const votes = new Map<string, { yes: number; n: number }>();
  for (const j of judgments) {
    const key = `${j.paper} ${j.topic}`;
    const v = votes.get(key) ?? { yes: 0, n: 0 };
    v.n++;
    if (j.label) v.yes++;
    votes.set(key, v);
  }
  return new Map([...votes].map(([k, v]) => [k, v.yes * 2 > v.n]));
}

/** Precision and recall (Wilson intervals) of the engine's `slug` tags against judged papers. */
function confusion(
  judged: readonly { paper: TaggablePaper; label: boolean }[],
  slug: string,
  predict: Predictions,
): { yes: number; p: ReturnType<typeof wilson>; r: ReturnType<typeof wilson> } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const { paper, label } of judged) {
    const tagged = predict.all(paper).has(slug);
    if (tagged && label) tp++;
    else if (tagged) fp++;
    else if (label) fn++;
  }
  return { yes: judged.filter((j) => j.label).length, p: wilson(tp, tp + fp), r: wilson(tp, tp + fn) };
}

/** Cohen's kappa between two judges over the pairs both labelled. */
export function kappa(a: readonly boolean[], b: readonly boolean[]): number {
  const n = a.length;
  if (n === 0) return NaN;
  let agree = 0;
  let aYes = 0;
  let bYes = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    if (a[i]) aYes++;
    if (b[i]) bYes++;
  }
  const po = agree / n;
  const pe = (aYes / n) * (bYes / n) + (1 - aYes / n) * (1 - bYes / n);
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}

function agreement(shared: readonly LockedJudgment[]): Record<string, unknown> {
  const judges = [...new Set(shared.map((j) => j.judge))].sort();
  const byJudge = new Map(judges.map((judge) => [judge, new Map<string, boolean>()]));
  for (const j of shared) byJudge.get(j.judge)?.set(`${j.paper} ${j.topic}`, j.label);
  const kappas: number[] = [];
  const rates: number[] = [];
  for (let x = 0; x < judges.length; x++) {
    for (let y = x + 1; y < judges.length; y++) {
      const a = byJudge.get(judges[x] ?? '') ?? new Map<string, boolean>();
      const b = byJudge.get(judges[y] ?? '') ?? new Map<string, boolean>();
      const keys = [...a.keys()].filter((k) => b.has(k));
      const la = keys.map((k) => a.get(k) === true);
      const lb = keys.map((k) => b.get(k) === true);
      kappas.push(kappa(la, lb));
      rates.push(keys.length ? la.filter((v, i) => v === lb[i]).length / keys.length : NaN);
    }
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const pairs = new Set(shared.map((j) => `${j.paper} ${j.topic}`)).size;
  console.log(
    `judges' agreement on the shared slice: ${judges.length} judges, ${pairs} pairs, ` +
      `mean pairwise agreement ${mean(rates).toFixed(2)}, mean Cohen's kappa ${mean(kappas).toFixed(2)} ` +
      `(min ${Math.min(...kappas).toFixed(2)})`,
  );
  return { judges: judges.length, pairs, agreement: round3(mean(rates)), kappa: round3(mean(kappas)) };
}

/**
 * Precision over the taxonomy: each precision paper, one of its direct tags drawn uniformly (seeded),
 * judged in or out. A tag never shown to a judge counts as out: judges labelled every candidate and
 * added any other topic that applied, so an unlabelled topic is one they found not to apply.
 */
function taxonomyPrecision(
  labels: ReadonlyMap<string, boolean>,
  papers: readonly TaggablePaper[],
  predict: Predictions,
): Record<string, unknown> {
  const random = seededRandom(7);
  let n = 0;
  let right = 0;
  let unjudged = 0;
  let untagged = 0;
  let meanRight = 0;
  for (const paper of papers) {
    const tags = predict.direct(paper);
    if (tags.length === 0) {
      untagged++;
      continue;
    }
    const pick = tags[Math.floor(random() * tags.length)] ?? '';
    const label = labels.get(`${paper.id} ${pick}`);
    if (label === undefined) unjudged++;
    n++;
    if (label === true) right++;
    meanRight += tags.filter((t) => labels.get(`${paper.id} ${t}`) === true).length / tags.length;
  }
  const r = wilson(right, n);
  const flag =
    r.p >= TARGET_PRECISION && r.low >= 0.85 ? '' : `  below the goal (≥ ${TARGET_PRECISION}, low ≥ 0.85)`;
  console.log(
    `precision over the taxonomy: ${formatInterval(r)} on ${n} (paper, direct tag) pairs from ${papers.length} ` +
      `uniform papers${flag}`,
  );
  console.log(
    `  every direct tag of those papers averaged: ${(meanRight / Math.max(1, n)).toFixed(3)}; ` +
      `${untagged} papers had no tag; ${unjudged} drawn tags were never shown to a judge (counted out)`,
  );
  return { pairs: n, precision: round3(r.p), low: round3(r.low), high: round3(r.high), untagged, unjudged };
}

/**
 * Per evaluation topic, from a uniform sample of its candidate pool: recall = judged-in papers the engine
 * tags; precision = tagged papers judged in. Papers the engine tags outside the pool are counted and
 * printed, since the pool sample cannot judge them.
 */
function topicFigures(
  recall: readonly LockedJudgment[],
  labels: ReadonlyMap<string, boolean>,
  corpus: readonly TaggablePaper[],
  byId: ReadonlyMap<string, TaggablePaper>,
  predict: Predictions,
  heading = 'per topic, on a uniform sample of its pool (papers naming a core concept):',
  misses: string[] | null = null,
  topics: readonly string[] = EVAL_TOPICS,
): Record<string, unknown> {
  const concepts = coreConcepts();
  console.log('');
  console.log(heading);
  console.log(
    'topic                               pool  in-pool est.  n   precision [95%]    recall [95%]       tagged outside pool',
  );
  const out: Record<string, unknown> = {};
  let meeting = 0;
  for (const slug of topics) {
    const pattern = conceptPattern(concepts.get(slug) ?? []);
    const pool = corpus.filter((p) => namesConcept(pattern, p));
    const taggedAll = corpus.filter((p) => predict.all(p).has(slug));
    const outside = taggedAll.filter((p) => !namesConcept(pattern, p)).length;
    const sample = [...new Set(recall.filter((j) => j.topic === slug).map((j) => j.paper))];
    const judged = sample.map((id) => {
      const paper = byId.get(id);
      if (!paper) throw new Error(`The locked set names the paper ${id}, which is not in the corpus.`);
      return { paper, label: labels.get(`${id} ${slug}`) === true };
    });
    const { yes, p, r } = confusion(judged, slug, predict);
    if (misses)
      for (const { paper, label } of judged) {
        const tagged = predict.all(paper).has(slug);
        if (label !== tagged)
          misses.push(`${label ? 'FN' : 'FP'} ${slug} ${paper.id} ${paper.title.slice(0, 80)}`);
      }
    const estimate = Math.round((pool.length * yes) / Math.max(1, sample.length));
    const meets = p.p >= TARGET_PRECISION && r.p >= (slug === 'rl-for-llm-agents' ? 0.9 : TARGET_RECALL);
    if (meets) meeting++;
    console.log(
      `${slug.padEnd(34)} ${String(pool.length).padStart(5)}  ${String(estimate).padStart(6)}  ${String(sample.length).padStart(6)}  ` +
        `${formatInterval(p).padEnd(18)} ${formatInterval(r).padEnd(18)} ${outside} of ${taggedAll.length}${meets ? '' : '  below goal'}`,
    );
    out[slug] = {
      pool: pool.length,
      inTopicEstimate: estimate,
      sample: sample.length,
      precision: round3(p.p),
      precisionLow: round3(p.low),
      recall: round3(r.p),
      recallLow: round3(r.low),
      taggedOutsidePool: outside,
      tagged: taggedAll.length,
    };
  }
  console.log(
    `${meeting} of ${topics.length} topics meet precision ≥ 0.90 and recall ≥ 0.85 (0.90 for RL for LLM Agents)`,
  );
  return { meeting, topics: out };
}

export function lockedSetFigures(
  judgments: readonly LockedJudgment[],
  corpus: readonly TaggablePaper[],
  predict: Predictions,
): Record<string, unknown> {
  const byId = new Map(corpus.map((p) => [p.id, p]));
  const shared = judgments.filter((j) => j.set === 'shared');
  const precisionJudgments = judgments.filter((j) => j.set !== 'recall');
  const labels = consensus(precisionJudgments);
  const precisionPapers = [...new Set(precisionJudgments.map((j) => j.paper))].map((id) => {
    const paper = byId.get(id);
    if (!paper) throw new Error(`The locked set names the paper ${id}, which is not in the corpus.`);
    return paper;
  });
  const recall = judgments.filter((j) => j.set === 'recall');
  // Recall rows are judged apart from the precision rows (a pool paper may be in both samples).
  const recallLabels = consensus(recall);
  console.log('');
  console.log(`locked test set: ${judgments.length} judgments (figures only; its items are never printed)`);
  return {
    agreement: agreement(shared),
    precision: taxonomyPrecision(labels, precisionPapers, predict),
    ...topicFigures(recall, recallLabels, corpus, byId, predict),
  };
}

/**
 * The second development sample's recall part (dev-recall-2.jsonl): the locked set's per-topic figures on
 * fresh pool samples, with every miss printed under EVAL_VERBOSE, since this set is for tuning.
 */
export function devRecallFigures(
  judgments: readonly LockedJudgment[],
  corpus: readonly TaggablePaper[],
  predict: Predictions,
  file = 'dev-recall-2.jsonl',
  topics: readonly string[] = EVAL_TOPICS,
): Record<string, unknown> {
  const byId = new Map(corpus.map((p) => [p.id, p]));
  const misses: string[] = [];
  const figures = topicFigures(
    judgments,
    consensus(judgments),
    corpus,
    byId,
    predict,
    `development pool samples (${file}), per topic:`,
    misses,
    topics,
  );
  if (process.env.EVAL_VERBOSE) for (const m of misses.sort()) console.log(`  ${m}`);
  return figures;
}

/** Direct tags per paper over the whole corpus, and topic pairs whose paper sets overlap by more than 80%. */
export function tagDistribution(
  corpus: readonly TaggablePaper[],
  taxonomy: Taxonomy,
  predict: Predictions,
): Record<string, unknown> {
  const counts = corpus.map((p) => predict.direct(p).length).sort((a, b) => a - b);
  const shown = corpus.map((p) => predict.all(p).size).sort((a, b) => a - b);
  const at = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;
  const none = counts.filter((n) => n === 0).length / Math.max(1, counts.length);
  const histogram: number[] = [];
  for (const n of counts) histogram[Math.min(n, 10)] = (histogram[Math.min(n, 10)] ?? 0) + 1;
  console.log('');
  console.log(
    `direct tags per paper: median ${at(counts, 0.5)}, p90 ${at(counts, 0.9)}, max ${counts.at(-1) ?? 0}, ` +
      `${(100 * none).toFixed(1)}% with none (goal: median 3–5, max 8, ≤ 2% none); ` +
      `with implied broader topics: median ${at(shown, 0.5)}, max ${shown.at(-1) ?? 0}`,
  );
  console.log(`  histogram (0..10+): ${Array.from({ length: 11 }, (_, i) => histogram[i] ?? 0).join(' ')}`);

  const members = new Map<string, Set<string>>();
  for (const p of corpus) {
    for (const slug of predict.all(p)) {
      let set = members.get(slug);
      if (!set) members.set(slug, (set = new Set()));
      set.add(p.id);
    }
  }
  const overlaps: { a: string; b: string; both: number; nested: number; shared: number }[] = [];
  const slugs = taxonomy.topics.map((t) => t.slug).filter((s) => (members.get(s)?.size ?? 0) > 0);
  // A narrower topic that holds nearly all of its broader topic's papers is as much a duplicate to a reader
  // (Agentic RL beside RL for LLM Agents), though the pair table below leaves parent and child out.
  const sameAsParent: { a: string; b: string; both: number; nested: number; shared: number }[] = [];
  for (const child of slugs) {
    const sc = members.get(child) ?? new Set<string>();
    if (sc.size < 10) continue;
    for (const parent of taxonomy.ancestors.get(child) ?? []) {
      const sp = members.get(parent) ?? new Set<string>();
      let shared = 0;
      for (const id of sc) if (sp.has(id)) shared++;
      if (sp.size > 0 && shared / sp.size > 0.8)
        sameAsParent.push({ a: child, b: parent, both: shared / sp.size, nested: shared / sc.size, shared });
    }
  }
  for (let i = 0; i < slugs.length; i++) {
    for (let j = i + 1; j < slugs.length; j++) {
      const a = slugs[i] ?? '';
      const b = slugs[j] ?? '';
      // A topic and its ancestor overlap by construction (tags imply parents): not a duplicate.
      if (taxonomy.ancestors.get(a)?.includes(b) || taxonomy.ancestors.get(b)?.includes(a)) continue;
      const sa = members.get(a) ?? new Set<string>();
      const sb = members.get(b) ?? new Set<string>();
      const [small, big] = sa.size <= sb.size ? [sa, sb] : [sb, sa];
      if (small.size < 10) continue;
      let shared = 0;
      for (const id of small) if (big.has(id)) shared++;
      overlaps.push({ a, b, both: shared / big.size, nested: shared / small.size, shared });
    }
  }
  // Near-duplicates hold more than 80% of each other's papers; a small topic inside a large one is nested
  // (a child topic the taxonomy does not name as such), listed apart.
  const duplicates = overlaps.filter((o) => o.both > 0.8).sort((x, y) => y.both - x.both);
  const nested = overlaps.filter((o) => o.both <= 0.8 && o.nested > 0.8).sort((x, y) => y.nested - x.nested);
  const line = (o: (typeof overlaps)[number]) =>
    `  ${o.a} × ${o.b}: ${o.shared} shared (${(100 * o.nested).toFixed(0)}% of the smaller, ${(100 * o.both).toFixed(0)}% of the larger; sizes ${members.get(o.a)?.size} and ${members.get(o.b)?.size})`;
  console.log(
    `topic pairs (not parent and child) sharing more than 80% of each other's papers: ${duplicates.length}`,
  );
  for (const o of duplicates) console.log(line(o));
  console.log(`nested pairs (over 80% of the smaller inside the larger): ${nested.length}; the first 10:`);
  for (const o of nested.slice(0, 10)) console.log(line(o));
  sameAsParent.sort((x, y) => y.both - x.both);
  console.log(`narrower topics holding more than 80% of a broader topic's papers: ${sameAsParent.length}`);
  for (const o of sameAsParent) console.log(line(o));
  return {
    median: at(counts, 0.5),
    max: counts.at(-1) ?? 0,
    nonePct: Number((100 * none).toFixed(2)),
    medianShown: at(shown, 0.5),
    overlapsAbove80: duplicates.length,
    nested: nested.length,
    childSameAsParent: sameAsParent.length,
  };
}

/**
 * The taxonomy-wide development sample (dev-set-taxonomy.jsonl, drawn and judged like the locked set's
 * precision papers): precision of every direct tag and recall of every judged-in topic, with each miss
 * printed under EVAL_VERBOSE, since this set is for tuning.
 */
export function devTaxonomyFigures(
  judgments: readonly LockedJudgment[],
  byId: ReadonlyMap<string, TaggablePaper>,
  predict: Predictions,
  name = 'taxonomy-wide development sample',
  /** False for a sample kept as a fresh check: its misses are not printed even under EVAL_VERBOSE. */
  listMisses = true,
): Record<string, unknown> {
  const labels = consensus(judgments);
  const ids = [...new Set(judgments.map((j) => j.paper))];
  let tags = 0;
  let right = 0;
  let inTopic = 0;
  let found = 0;
  const misses: string[] = [];
  for (const id of ids) {
    const paper = byId.get(id);
    if (!paper) throw new Error(`The ${name} names the paper ${id}, which is not in the corpus.`);
    const all = predict.all(paper);
    for (const slug of predict.direct(paper)) {
      tags++;
      if (labels.get(`${id} ${slug}`) === true) right++;
      else misses.push(`FP ${slug} ${id} ${paper.title.slice(0, 80)}`);
    }
    for (const [key, label] of labels) {
      if (!label || !key.startsWith(`${id} `)) continue;
      const slug = key.slice(id.length + 1);
      inTopic++;
      if (all.has(slug)) found++;
      else misses.push(`FN ${slug} ${id} ${paper.title.slice(0, 80)}`);
    }
  }
  const p = wilson(right, tags);
  const r = wilson(found, inTopic);
  // The locked set's own measure (one direct tag drawn per paper, the same seed), so the two compare like
  // for like: every direct tag's precision weighs papers with many tags more.
  const random = seededRandom(7);
  let drawn = 0;
  let drawnRight = 0;
  for (const id of ids) {
    const paper = byId.get(id);
    const direct = paper ? predict.direct(paper) : [];
    if (direct.length === 0) continue;
    drawn++;
    if (labels.get(`${id} ${direct[Math.floor(random() * direct.length)] ?? ''}`) === true) drawnRight++;
  }
  const one = wilson(drawnRight, drawn);
  console.log('');
  console.log(
    `${name}: ${ids.length} papers; every direct tag's precision ${formatInterval(p)} ` +
      `(${tags} tags); one drawn tag per paper ${formatInterval(one)} (${drawn}); ` +
      `recall of judged-in topics (with implied parents) ${formatInterval(r)} (${inTopic})`,
  );
  if (process.env.EVAL_VERBOSE && listMisses) for (const m of misses.sort()) console.log(`  ${m}`);
  return {
    papers: ids.length,
    precision: round3(p.p),
    precisionLow: round3(p.low),
    oneTagPrecision: round3(one.p),
    recall: round3(r.p),
  };
}

/**
 * RL for LLM Agents and Agentic RL on their second pool (rl-agents-pool.ts: an RL concept and an agent
 * concept anywhere), judged like the locked set and held out the same way.
 */
export function rlAgentsFigures(
  judgments: readonly LockedJudgment[],
  corpus: readonly TaggablePaper[],
  inPool: (paper: TaggablePaper) => boolean,
  predict: Predictions,
): Record<string, unknown> {
  const byId = new Map(corpus.map((p) => [p.id, p]));
  const pool = corpus.filter(inPool);
  const out: Record<string, unknown> = {};
  console.log('');
  console.log(
    `the second pool for RL for LLM Agents (an RL and an agent concept anywhere): ${pool.length} papers`,
  );
  for (const slug of ['rl-for-llm-agents', 'agentic-rl']) {
    const labels = consensus(judgments.filter((j) => j.topic === slug));
    const judged = [...labels].map(([key, label]) => {
      const paper = byId.get(key.split(' ')[0] ?? '');
      if (!paper) throw new Error(`locked-rl-agents.jsonl names ${key}, whose paper is not in the corpus.`);
      return { paper, label };
    });
    const { yes, p, r } = confusion(judged, slug, predict);
    const tagged = corpus.filter((paper) => predict.all(paper).has(slug));
    const outside = tagged.filter((paper) => !inPool(paper)).length;
    const estimate = Math.round((pool.length * yes) / Math.max(1, labels.size));
    console.log(
      `${slug.padEnd(34)} sample ${labels.size}, in-topic in pool ≈ ${estimate}: precision ${formatInterval(p)}, ` +
        `recall ${formatInterval(r)}; ${outside} of ${tagged.length} tags outside this pool`,
    );
    out[slug] = {
      pool: pool.length,
      sample: labels.size,
      inTopicEstimate: estimate,
      precision: round3(p.p),
      recall: round3(r.p),
      outside,
    };
  }
  return out;
}
