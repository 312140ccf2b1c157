/**
 * For reviewing topic definitions on development data only: `tsx tests/eval/dev-topic-check.ts
 * --topics a,b,c [--patch FILE]` tags the corpus with the built-in taxonomy, or with FILE's definitions
 * put in place of those topics' (a JSON object: slug → a whole `definition`), and prints, for each topic,
 * precision and recall on the development judgments (dev-set-taxonomy(-2, -3), dev-set-a/b/c, test-set, dev-recall-2, -3)
 * with every miss, and how many corpus papers it tags. It never reads the locked set.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  compileTaxonomy,
  collectionStats,
  defaultTaxonomy,
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
const engine = compileTaxonomy(taxonomy, collectionStats(taxonomy, papers));
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
for (const j of loadJudgments(/^(dev-set-[a-c]|test-set|dev-recall-[23])\.jsonl$/))
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
      misses.push(`  FN ${id} ${paper.title.slice(0, 100)}`);
    }
  }
  const size = papers.filter((p) => shownOf(p).has(slug)).length;
  console.log(`${slug}: tp ${tp} fp ${fp} fn ${fn}; tags ${size} corpus papers`);
  for (const m of misses) console.log(m);
}
