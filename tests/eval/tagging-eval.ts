import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileForCollection, defaultTaxonomy, withAncestors, type TaggablePaper } from '@quire/core';
import { loadCorpus } from '../src/replay/index.ts';

interface Judgment {
  paper: string;
  topic: string;
  label: boolean;
  hard?: boolean;
  why?: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Every `dev-set-*.jsonl` beside this file: (paper, topic, yes/no) judgments made by reading the abstracts. */
export function loadDevSet(): Judgment[] {
  const out: Judgment[] = [];
  for (const file of readdirSync(here)
    .filter((f) => /^dev-set-.*\.jsonl$/.test(f))
    .sort()) {
    readFileSync(join(here, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim()) return;
        try {
          out.push(JSON.parse(line) as Judgment);
        } catch {
          throw new Error(`${file} line ${i + 1} is not valid JSON.`);
        }
      });
  }
  return out;
}

function pct(n: number): string {
  return Number.isNaN(n) ? '  —  ' : n.toFixed(2);
}

/** Precision and recall of the default taxonomy on the labelled development set, per topic and overall. */
export async function runTaggingEval(): Promise<Record<string, unknown>> {
  const judgments = loadDevSet();
  if (judgments.length === 0) throw new Error('No judgments found in tests/eval/dev-set-*.jsonl.');
  const taxonomy = defaultTaxonomy();
  const corpus = await loadCorpus();
  const papers: TaggablePaper[] = corpus.map((p) => ({
    id: p.id,
    title: p.title,
    abstract: p.abstract,
    categories: p.categories,
  }));
  const byId = new Map(papers.map((p) => [p.id, p]));
  const engine = compileForCollection(taxonomy, papers);

  const predicted = new Map<string, Set<string>>();
  const topics = [...new Set(judgments.map((j) => j.topic))].sort();
  const rows: {
    topic: string;
    tp: number;
    fp: number;
    fn: number;
    tn: number;
    precision: number;
    recall: number;
  }[] = [];
  const misses: string[] = [];
  for (const topic of topics) {
    if (!taxonomy.bySlug.has(topic))
      throw new Error(`The dev set names the topic "${topic}", which the taxonomy lacks.`);
    let tp = 0,
      fp = 0,
      fn = 0,
      tn = 0;
    for (const j of judgments.filter((x) => x.topic === topic)) {
      const paper = byId.get(j.paper);
      if (!paper) throw new Error(`The dev set names the paper ${j.paper}, which is not in the corpus.`);
      let tags = predicted.get(j.paper);
      if (!tags) {
        tags = new Set(withAncestors(taxonomy, engine.tag(paper)).map((t) => t.slug));
        predicted.set(j.paper, tags);
      }
      const yes = tags.has(topic);
      if (yes && j.label) tp++;
      else if (yes && !j.label) fp++;
      else if (!yes && j.label) fn++;
      else tn++;
      if (yes !== j.label && process.env.EVAL_VERBOSE) {
        misses.push(`${yes ? 'FP' : 'FN'} ${topic} ${j.paper} ${paper.title.slice(0, 90)}`);
      }
    }
    rows.push({ topic, tp, fp, fn, tn, precision: tp / (tp + fp), recall: tp / (tp + fn) });
  }
  const sum = (k: 'tp' | 'fp' | 'fn' | 'tn') => rows.reduce((s, r) => s + r[k], 0);
  const precision = sum('tp') / (sum('tp') + sum('fp'));
  const recall = sum('tp') / (sum('tp') + sum('fn'));

  console.log(
    `taxonomy ${taxonomy.version}: ${taxonomy.topics.length} topics; dev set: ${judgments.length} judgments, ${judgments.filter((j) => j.hard).length} hard negatives`,
  );
  console.log('topic                                   n    P     R    (tp fp fn tn)');
  for (const r of rows) {
    const flag = r.precision >= 0.85 && r.recall >= 0.85 ? '' : '  below 0.85';
    console.log(
      `${r.topic.padEnd(38)} ${String(r.tp + r.fp + r.fn + r.tn).padStart(3)}  ${pct(r.precision)}  ${pct(r.recall)}  (${r.tp} ${r.fp} ${r.fn} ${r.tn})${flag}`,
    );
  }
  console.log(
    `${'overall (micro)'.padEnd(38)} ${String(judgments.length).padStart(3)}  ${pct(precision)}  ${pct(recall)}`,
  );
  for (const m of misses) console.log(`  ${m}`);
  return {
    judgments: judgments.length,
    precision: Number(precision.toFixed(3)),
    recall: Number(recall.toFixed(3)),
    topicsMeetingTarget: rows.filter((r) => r.precision >= 0.85 && r.recall >= 0.85).length,
    topics: Object.fromEntries(
      rows.map((r) => [
        r.topic,
        { precision: Number(r.precision.toFixed(3)), recall: Number(r.recall.toFixed(3)) },
      ]),
    ),
  };
}
