/**
 * For sorting the engine's wrong tags into kinds, on development data only: `tsx
 * tests/eval/dev-false-positives.ts [--every N] [--topic SLUG]` prints each direct tag the shipped engine
 * gives a paper of the taxonomy-wide development samples 1–3 (dev-set-taxonomy(-2, -3): fitted on, misses
 * printable) that the readers judged out or never named, with the paper's title, each abstract sentence and
 * its role, the tag's evidence, the readers' reason and the topics they judged in; `--every 2` prints every
 * second one (a sample to categorise), then a count of where each wrong tag's strongest phrase was read.
 * It never reads the fourth and fifth samples, dev-recall-4 (fresh checks) or the locked sets.
 */
import { parseArgs } from 'node:util';
import { compileForCollection, defaultTaxonomy, sentencesOf, type TagEvidence } from '@quire/core';
import { taggableCorpus } from './eval-corpus.ts';
import { consensus, type LockedJudgment } from './locked-eval.ts';
import { loadJudgments } from './tagging-eval.ts';

const { values } = parseArgs({ options: { every: { type: 'string' }, topic: { type: 'string' } } });
const every = Math.max(1, Number(values.every ?? 1));
const taxonomy = defaultTaxonomy();
const { papers, byId } = await taggableCorpus();
const engine = compileForCollection(taxonomy, papers);
const judgments = loadJudgments(/^dev-set-taxonomy(-[23])?\.jsonl$/) as unknown as LockedJudgment[];
const labels = consensus(judgments);
const reasons = new Map<string, string>();
for (const j of judgments) if (j.why) reasons.set(`${j.paper} ${j.topic}`, j.why);

/** Where a tag's strongest phrase was read: the title, a plain sentence, or a sentence of a weaker role. */
function placeOf(evidence: readonly TagEvidence[]): string {
  const phrases = evidence.filter((e) => e.rule === 'phrase');
  if (phrases.length === 0) return evidence[0]?.rule === 'category' ? 'fallback' : 'no phrase';
  const top = phrases.reduce((a, e) => (e.points > a.points ? e : a));
  if (top.field === 'title') return 'title';
  return top.detail.includes('×') ? 'weak sentence' : 'plain sentence';
}

const places = new Map<string, number>();
let wrong = 0;
for (const id of [...new Set(judgments.map((j) => j.paper))].sort()) {
  const paper = byId.get(id);
  if (!paper) continue;
  const tags = engine.tag(paper);
  const judgedIn = taxonomy.topics.filter((t) => labels.get(`${id} ${t.slug}`) === true).map((t) => t.slug);
  for (const tag of tags) {
    const key = `${id} ${tag.slug}`;
    if (labels.get(key) === true || (values.topic && tag.slug !== values.topic)) continue;
    if (wrong++ % every !== 0) continue;
    const place = placeOf(tag.evidence);
    places.set(place, (places.get(place) ?? 0) + 1);
    const verdict = labels.has(key) ? `judged out: ${reasons.get(key) ?? ''}` : 'never named by a reader';
    console.log(`\n### ${wrong} ${tag.slug} ${id} [${paper.categories.join(' ')}] ${verdict}`);
    console.log(`title: ${paper.title}`);
    sentencesOf(paper.abstract).forEach((s, i) =>
      console.log(`  [${i}${s.role === 'plain' ? '' : ` ${s.role}`}] ${s.text}`),
    );
    const lines = tag.evidence.map(
      (e) => `${e.rule} ${e.detail}${e.field ? ` (${e.field})` : ''} ${e.points}`,
    );
    console.log(`  evidence: ${lines.join(' | ')}`);
    console.log(
      `  judged in: ${judgedIn.join(', ') || '—'}; direct tags: ${tags.map((t) => t.slug).join(', ')}`,
    );
  }
}
console.log(`\n${wrong} wrong direct tags; where the strongest phrase of those printed was read:`);
for (const [place, n] of [...places].sort((a, b) => b[1] - a[1])) console.log(`  ${place}: ${n}`);
