import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@quire/server/search/search-timing';

// One seeded generator for the project's samples (benchmarks' queries, evaluation samples).
export { seededRandom };

/**
 * Recall candidate pools: for a topic, the papers whose title or abstract names one of the topic's core
 * concepts, as a reader would search for them. The concepts are the "Core concepts:" lines of
 * CRITERIA-taxonomy.md, written from the topics' descriptions before any judging and never from the
 * engine's definitions, so a pool holds tagged and untagged papers alike.
 */

const here = dirname(fileURLToPath(import.meta.url));
export const CRITERIA_FILE = join(here, 'CRITERIA-taxonomy.md');

const HEADING = /^##\s+([a-z0-9-]+)\s+—/;
const CONCEPTS = /^\s*[-*]?\s*\**core concepts:?\**:?\s*(.*)$/i;

/** Core concepts per topic slug, as written in the criteria file. */
export function coreConcepts(text = readFileSync(CRITERIA_FILE, 'utf8')): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let slug: string | null = null;
  for (const line of text.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      slug = heading[1] ?? null;
      continue;
    }
    const concepts = CONCEPTS.exec(line);
    if (slug && concepts) {
      const list = (concepts[1] ?? '')
        .split(/[,;]/)
        .map((s) =>
          s
            .replace(/[`*.]+$/g, '')
            .replace(/[`*]/g, '')
            .trim(),
        )
        .filter((s) => s.length > 1);
      out.set(slug, [...(out.get(slug) ?? []), ...list]);
    }
  }
  return out;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One pattern per topic: any concept as whole words, case-insensitive, hyphens, slashes and spaces
 * interchangeable, an optional plural "s"/"es". All-caps acronyms (RAG, PPO) match case-sensitively, so
 * "rag" in prose does not count.
 */
export function conceptPattern(concepts: readonly string[]): { folded: RegExp | null; exact: RegExp | null } {
  const folded: string[] = [];
  const exact: string[] = [];
  for (const concept of concepts) {
    const words = concept
      .split(/[\s\-/]+/)
      .filter(Boolean)
      .map(escape);
    if (words.length === 0) continue;
    const body = words.join('[\\s\\-/]*') + '(?:s|es)?';
    if (/^[A-Z0-9][A-Z0-9\-+]*[A-Z][A-Z0-9\-+]*s?$/.test(concept)) exact.push(body);
    else folded.push(body);
  }
  const build = (parts: string[], flags: string) =>
    parts.length ? new RegExp(`(?<![A-Za-z0-9])(?:${parts.join('|')})(?![A-Za-z0-9])`, flags) : null;
  return { folded: build(folded, 'i'), exact: build(exact, '') };
}

export function namesConcept(
  pattern: { folded: RegExp | null; exact: RegExp | null },
  paper: { title: string; abstract: string },
): boolean {
  const text = `${paper.title}\n${paper.abstract}`;
  return (pattern.folded?.test(text) ?? false) || (pattern.exact?.test(text) ?? false);
}

/** `k` items drawn without replacement (a partial Fisher–Yates shuffle). */
export function sampleOf<T>(items: readonly T[], k: number, random: () => number): T[] {
  const copy = [...items];
  const n = Math.min(k, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}
