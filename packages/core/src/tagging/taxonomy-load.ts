import { CoreError } from '../errors.ts';
import { ENGINE_VERSION } from './engine-version.ts';
import type { PhraseGroup, TopicDefinition, TopicSpec } from './taxonomy-types.ts';
import { tokenise } from './tokenise.ts';

/** A validated taxonomy with the hierarchy resolved. */
export interface Taxonomy {
  version: string;
  topics: readonly TopicSpec[];
  bySlug: ReadonlyMap<string, TopicSpec>;
  /** Direct children per slug. */
  children: ReadonlyMap<string, readonly string[]>;
  /** Every ancestor per slug, nearest first. */
  ancestors: ReadonlyMap<string, readonly string[]>;
  /** 0 for roots; the longest parent chain otherwise. */
  depth: ReadonlyMap<string, number>;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function fail(message: string): never {
  throw new CoreError('invalid-taxonomy', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    fail(`${where} must be a list of strings.`);
  return value;
}

function checkTerms(terms: string[], where: string): void {
  for (const term of terms) {
    if (tokenise(term.replace(/\*$/, '')).lower.length === 0) {
      fail(`${where} has the term "${term}", which contains no words and can never match.`);
    }
  }
}

function readDefinition(raw: unknown, slug: string): TopicDefinition {
  const where = `Topic "${slug}": definition`;
  if (!isObject(raw)) fail(`${where} is missing or not an object.`);
  if (!Array.isArray(raw.phrases)) fail(`${where}.phrases must be a list of {terms, weight} groups.`);
  const phrases: PhraseGroup[] = raw.phrases.map((g: unknown, i) => {
    if (!isObject(g) || typeof g.weight !== 'number' || !(g.weight > 0)) {
      fail(`${where}.phrases[${i}] needs terms and a positive weight.`);
    }
    const terms = stringList(g.terms, `${where}.phrases[${i}].terms`);
    if (terms.length === 0) fail(`${where}.phrases[${i}] has no terms.`);
    checkTerms(terms, `${where}.phrases[${i}]`);
    if (g.bridges !== undefined && typeof g.bridges !== 'boolean') {
      fail(`${where}.phrases[${i}].bridges must be true or false.`);
    }
    return g.bridges === true ? { terms, weight: g.weight, bridges: true } : { terms, weight: g.weight };
  });
  const def: TopicDefinition = { phrases };
  if (raw.requireAll !== undefined) {
    if (!Array.isArray(raw.requireAll)) fail(`${where}.requireAll must be a list of term lists.`);
    def.requireAll = raw.requireAll.map((g: unknown, i) => {
      const terms = stringList(g, `${where}.requireAll[${i}]`);
      if (terms.length === 0) fail(`${where}.requireAll[${i}] is empty, so the topic could never match.`);
      checkTerms(terms, `${where}.requireAll[${i}]`);
      return terms;
    });
  }
  if (raw.exclude !== undefined) {
    def.exclude = stringList(raw.exclude, `${where}.exclude`);
    checkTerms(def.exclude, `${where}.exclude`);
  }
  if (raw.mask !== undefined) {
    def.mask = stringList(raw.mask, `${where}.mask`);
    checkTerms(def.mask, `${where}.mask`);
  }
  if (raw.categoryPriors !== undefined) {
    if (
      !isObject(raw.categoryPriors) ||
      !Object.values(raw.categoryPriors).every((v) => typeof v === 'number')
    ) {
      fail(`${where}.categoryPriors must map categories to numbers.`);
    }
    def.categoryPriors = raw.categoryPriors as Record<string, number>;
  }
  if (raw.exemplars !== undefined) def.exemplars = stringList(raw.exemplars, `${where}.exemplars`);
  if (raw.exemplarWeight !== undefined) {
    if (typeof raw.exemplarWeight !== 'number') fail(`${where}.exemplarWeight must be a number.`);
    def.exemplarWeight = raw.exemplarWeight;
  }
  if (raw.threshold !== undefined) {
    if (typeof raw.threshold !== 'number' || !(raw.threshold > 0))
      fail(`${where}.threshold must be a positive number.`);
    def.threshold = raw.threshold;
  }
  if (raw.fallbackCategories !== undefined) {
    def.fallbackCategories = stringList(raw.fallbackCategories, `${where}.fallbackCategories`);
  }
  if (raw.singleWordSuffices !== undefined) {
    if (typeof raw.singleWordSuffices !== 'boolean')
      fail(`${where}.singleWordSuffices must be true or false.`);
    def.singleWordSuffices = raw.singleWordSuffices;
  }
  if (phrases.length === 0 && !def.exemplars?.length) {
    fail(`${where} has no phrases and no exemplars, so it matches nothing.`);
  }
  return def;
}

function readTopic(raw: unknown, index: number): TopicSpec {
  if (!isObject(raw)) fail(`Topic #${index + 1} is not an object.`);
  const slug = raw.slug;
  if (typeof slug !== 'string' || !SLUG.test(slug)) {
    fail(
      `Topic #${index + 1} has the slug ${JSON.stringify(slug)}; slugs are lowercase words joined by hyphens.`,
    );
  }
  for (const key of ['name', 'acronyms', 'description'] as const) {
    if (typeof raw[key] !== 'string') fail(`Topic "${slug}" needs a ${key} (a string).`);
  }
  if ((raw.name as string).trim() === '') fail(`Topic "${slug}" has an empty name.`);
  return {
    slug,
    name: raw.name as string,
    acronyms: raw.acronyms as string,
    description: raw.description as string,
    parents: stringList(raw.parents ?? [], `Topic "${slug}": parents`),
    definition: readDefinition(raw.definition, slug),
  };
}

/**
 * Validates taxonomy data (parsed JSON) and resolves its hierarchy. Errors name the topic and what to fix:
 * a duplicate slug, an unknown parent, a cycle, a definition that can match nothing.
 */
export function loadTaxonomy(raw: unknown): Taxonomy {
  if (!isObject(raw)) fail('A taxonomy is an object with a version and a list of topics.');
  if (typeof raw.version !== 'string' || raw.version.trim() === '')
    fail('The taxonomy needs a version string.');
  if (!Array.isArray(raw.topics) || raw.topics.length === 0) fail('The taxonomy has no topics.');
  const topics = raw.topics.map(readTopic);

  const bySlug = new Map<string, TopicSpec>();
  for (const topic of topics) {
    if (bySlug.has(topic.slug)) fail(`The slug "${topic.slug}" is used by two topics; slugs must be unique.`);
    bySlug.set(topic.slug, topic);
  }
  const children = new Map<string, string[]>(topics.map((t) => [t.slug, []]));
  for (const topic of topics) {
    for (const parent of topic.parents) {
      if (parent === topic.slug) fail(`Topic "${topic.slug}" lists itself as its parent.`);
      if (!bySlug.has(parent)) fail(`Topic "${topic.slug}" has the unknown parent "${parent}".`);
      children.get(parent)?.push(topic.slug);
    }
  }

  const ancestors = new Map<string, string[]>();
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const resolve = (slug: string, path: string[]): void => {
    if (ancestors.has(slug)) return;
    if (visiting.has(slug)) fail(`The parents form a cycle: ${[...path, slug].join(' → ')}.`);
    visiting.add(slug);
    const topic = bySlug.get(slug);
    const found: string[] = [];
    let d = 0;
    for (const parent of topic?.parents ?? []) {
      resolve(parent, [...path, slug]);
      d = Math.max(d, (depth.get(parent) ?? 0) + 1);
      for (const a of [parent, ...(ancestors.get(parent) ?? [])]) if (!found.includes(a)) found.push(a);
    }
    visiting.delete(slug);
    ancestors.set(slug, found);
    depth.set(slug, d);
  };
  for (const topic of topics) resolve(topic.slug, []);

  return { version: raw.version, topics, bySlug, children, ancestors, depth };
}

/**
 * A short stable hash of a topic's definition, so a changed definition can be re-tagged alone. Parents are
 * not part of it: tags are stored per topic as the definition gives them, and ancestors are added on read.
 */
export function topicDefinitionHash(taxonomy: Taxonomy, slug: string, selectionVersion = ''): string {
  const topic = taxonomy.bySlug.get(slug);
  if (!topic) fail(`Unknown topic "${slug}".`);
  const text = `${ENGINE_VERSION} ${selectionVersion} ${JSON.stringify(topic.definition)}`;
  // FNV-1a, 32 bits: enough to notice a change; not a security boundary.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
