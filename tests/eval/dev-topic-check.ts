/**
 * For reviewing topic definitions on development data only: `tsx tests/eval/dev-topic-check.ts
 * --topics a,b,c [--patch FILE]` tags the corpus with the built-in taxonomy, or with FILE's definitions
 * put in place of those topics' (a JSON object: slug → a whole `definition`), and prints, for each topic,
 * precision and recall on the development judgments (dev-set-taxonomy(-2, -3), dev-set-a/b/c, test-set, dev-recall-2, -3, -4)
 * with every miss, and how many corpus papers it tags. Each missed in-topic paper says why: the score it
 * reached against the threshold, the required concepts not meeting, or the calibration's confidence under
 * the cut-off. It never reads the locked set.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  compileTaxonomy,
  collectionStats,
  defaultCalibration,
  defaultTaxonomy,
  KEEP_CONFIDENCE,
  tagFeatures,
  TagSelection,
  loadTaxonomy,
  withAncestors,
  type TaggablePaper,
  type TopicDefinition,
} from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { loadJudgments } from './tagging-eval.ts';

const { values } = parseArgs({ options: { topics: { type: 'string' }, patch: { type: 'string' } } });
const wanted = (values.topics ?? '').split(',').filter(Boolean);
const base = defaultTaxonomy();
const patch = values.patch
  ? (JSON.parse(readFileSync(values.patch, 'utf8')) as Record<string, TopicDefinition>)
  : {};
for (const slug of Object.keys(patch))
  if (!base.bySlug.has(slug)) throw new Error(`The patch names ${slug}, not a topic.`);
// Same version string, so the built-in calibration still applies to the patched copy.
const taxonomy = loadTaxonomy({
  version: base.version,
  topics: base.topics.map((t) => (patch[t.slug] ? { ...t, definition: patch[t.slug] } : t)),
});
const { papers, byId } = await taggableCorpus();
const stats = collectionStats(taxonomy, papers);
const engine = compileTaxonomy(taxonomy, stats);
const calibration = defaultCalibration();
const selection = new TagSelection(taxonomy, calibration);
/** The topic alone with its threshold near 0, with or without its required concepts: what a miss lacked. */
const probes = new Map<
  string,
  { gated: ReturnType<typeof compileTaxonomy>; open: ReturnType<typeof compileTaxonomy> }
>();
function probe(slug: string) {
  let p = probes.get(slug);
  if (p) return p;
  const spec = taxonomy.bySlug.get(slug);
  if (!spec) throw new Error(`No topic ${slug}.`);
  const variant = (definition: TopicDefinition) =>
    compileTaxonomy(
      loadTaxonomy({
        version: base.version,
        topics: taxonomy.topics.map((t) => (t.slug === slug ? { ...t, definition } : t)),
      }),
      { ...stats, only: new Set([slug]) },
    );
  const loose = { ...spec.definition, threshold: 0.01, singleWordSuffices: true };
  p = { gated: variant(loose), open: variant({ ...loose, requireAll: [] }) };
  probes.set(slug, p);
  return p;
}
function whyMissed(paper: TaggablePaper, slug: string): string {
  const threshold = taxonomy.bySlug.get(slug)?.definition.threshold ?? 3;
  const passing = engine.passing(paper);
  const own = selection.contexts(passing).find((c) => c.tag.slug === slug);
  if (own) {
    const p = calibration?.probability(tagFeatures(own.tag, own.context), slug) ?? 0;
    return `passes ${own.tag.score}/${threshold}, confidence ${p.toFixed(2)} < ${KEEP_CONFIDENCE}`;
  }
  const { gated, open } = probe(slug);
  const g = gated.passing(paper).find((t) => t.slug === slug);
  if (g)
    return `score ${g.score}/${threshold}: ${g.evidence
      .filter((e) => e.rule === 'phrase')
      .map((e) => e.detail)
      .join(', ')}`;
  const o = open.passing(paper).find((t) => t.slug === slug);
  if (o)
    return `required concepts do not meet (score ${o.score}: ${o.evidence
      .filter((e) => e.rule === 'phrase')
      .map((e) => e.detail)
      .join(', ')})`;
  return 'no evidence';
}
const shown = new Map<string, Set<string>>();
const shownOf = (p: TaggablePaper) => {
  let s = shown.get(p.id);
  if (!s) shown.set(p.id, (s = new Set(withAncestors(taxonomy, engine.tag(p)).map((t) => t.slug))));
  return s;
};
// Taxonomy-wide development papers: a topic no judge labelled for a paper does not apply to it.
const wide = loadJudgments(/^dev-set-taxonomy(-[23])?\.jsonl$/);
const wideIds = new Set(wide.map((j) => j.paper));
const label = new Map<string, boolean>();
// Where judges differ (a pair judged twice), it counts as applying if any judge said so.
for (const j of wide)
  label.set(`${j.paper} ${j.topic}`, j.label || label.get(`${j.paper} ${j.topic}`) === true);
for (const j of loadJudgments(/^(dev-set-[a-c]|test-set|dev-recall-[234])\.jsonl$/))
  label.set(`${j.paper} ${j.topic}`, j.label);
for (const slug of wanted.length ? wanted : taxonomy.topics.map((t) => t.slug)) {
  if (!taxonomy.bySlug.has(slug)) throw new Error(`No topic ${slug}.`);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  const ids = new Set([
    ...wideIds,
    ...[...label.keys()].filter((k) => k.endsWith(` ${slug}`)).map((k) => k.split(' ')[0] ?? ''),
  ]);
  for (const id of ids) {
    const paper = byId.get(id);
    if (!paper) continue;
    const key = `${id} ${slug}`;
    const truth = label.get(key) ?? (wideIds.has(id) ? false : undefined);
    if (truth === undefined) continue;
    const tagged = shownOf(paper).has(slug);
    if (tagged && truth) tp++;
    else if (tagged) {
      fp++;
      misses.push(`  FP ${id} ${paper.title.slice(0, 100)}`);
    } else if (truth) {
      fn++;
      misses.push(`  FN ${id} ${paper.title.slice(0, 100)}\n       ${whyMissed(paper, slug)}`);
    }
  }
  const size = papers.filter((p) => shownOf(p).has(slug)).length;
  console.log(`${slug}: tp ${tp} fp ${fp} fn ${fn}; tags ${size} corpus papers`);
  for (const m of misses) console.log(m);
}
