/**
 * The group's own topics: a name, phrases and exemplar papers. Stored one field per key, and one key per
 * phrase and per exemplar, so two members adding phrases to the same topic offline both keep theirs.
 * Keys: `<id>|name` → name, `<id>|created` → { by, at }, `<id>|phrase|<phrase>` and
 * `<id>|exemplar|<arXiv id>` → { by, at }. A topic exists while its name key does.
 */
import type * as Y from 'yjs';
import { tokenise } from '../tagging/tokenise.ts';
import { normaliseText } from '../text-normalise.ts';
import { followTopicWrite, unfollowTopicWrite } from './followed-topics.ts';
import { joinKey, ROOT, rootMap, splitKey, writeGroup } from './group-doc.ts';
import { checkMemberId, checkNow, checkPaperId, checkSlug, checkText, invalidInput } from './input-checks.ts';
import {
  byCodeUnits,
  compareInstants,
  readNonEmpty,
  readPaperId,
  readStamp,
  type Stamp,
} from './peer-values.ts';

export interface CustomTopic {
  /** Lowercase words joined by hyphens, unique in the group. */
  id: string;
  /** The slug the tagging engine and followed topics use for it: `custom-<id>`. */
  slug: string;
  name: string;
  /** Terms as the tagging engine reads them (capitalised terms match case-sensitively, "reinforc*" a prefix). */
  phrases: string[];
  /** Normal arXiv ids without version. */
  exemplars: string[];
  createdBy: string | null;
  createdAt: string | null;
}

export interface CustomTopicInput {
  /** Default: derived from the name, so two members creating the same topic offline end up with one. */
  id?: string;
  name: string;
  phrases?: readonly string[];
  exemplars?: readonly string[];
}

const MAX_NAME = 80;
const MAX_PHRASE = 120;
const MAX_PHRASES = 100;
const MAX_EXEMPLARS = 50;

export function customTopicSlug(id: string): string {
  return `custom-${id}`;
}

/** "Diffusion Policies (RL)" → "diffusion-policies-rl". */
export function customTopicIdOf(name: string): string {
  const id = normaliseText(name)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  if (id === '') {
    throw invalidInput(`The topic name ${JSON.stringify(name)} has no letters or digits to make an id from.`);
  }
  return id;
}

function checkTopicId(id: string): string {
  const topicId = checkSlug(id, 'custom topic id');
  if (topicId.length > 60)
    throw invalidInput(`The custom topic id "${id}" is too long; keep it to 60 characters.`);
  return topicId;
}

// The engine rejects a taxonomy with a term that holds no words; a peer's such phrase is skipped on read.
function canMatch(phrase: string): boolean {
  return tokenise(phrase.replace(/\*$/, '')).lower.length > 0;
}

function checkPhrase(phrase: string): string {
  const text = checkText(phrase, 'topic phrase', MAX_PHRASE);
  if (!canMatch(text)) {
    throw invalidInput(
      `The phrase ${JSON.stringify(phrase)} contains no words, so it could never match a paper.`,
    );
  }
  return text;
}

interface Parts {
  name: string | null;
  created: Stamp | null;
  phrases: { value: string; stamp: Stamp }[];
  exemplars: { value: string; stamp: Stamp }[];
}

function emptyParts(): Parts {
  return { name: null, created: null, phrases: [], exemplars: [] };
}

function addPart(parts: Parts, field: string, value: unknown): void {
  if (field === 'name') parts.name = readNonEmpty(value);
  else if (field === 'created') parts.created = readStamp(value);
  else {
    const [kind, item] = splitKey(field, 2) ?? [];
    const stamp = readStamp(value);
    if (!stamp || item === undefined) return;
    if (kind === 'phrase' && canMatch(item)) parts.phrases.push({ value: item, stamp });
    const exemplar = kind === 'exemplar' ? readPaperId(item) : null;
    if (exemplar !== null) parts.exemplars.push({ value: exemplar, stamp });
  }
}

function inOrder(items: { value: string; stamp: Stamp }[]): string[] {
  const sorted = [...items].sort(
    (a, b) => compareInstants(a.stamp.at, b.stamp.at) || byCodeUnits(a.value, b.value),
  );
  return [...new Set(sorted.map((i) => i.value))];
}

function toTopic(id: string, parts: Parts): CustomTopic | null {
  if (parts.name === null) return null;
  return {
    id,
    slug: customTopicSlug(id),
    name: parts.name,
    phrases: inOrder(parts.phrases),
    exemplars: inOrder(parts.exemplars),
    createdBy: parts.created?.by ?? null,
    createdAt: parts.created?.at ?? null,
  };
}

function readAll(doc: Y.Doc): Map<string, Parts> {
  const byId = new Map<string, Parts>();
  rootMap(doc, ROOT.customTopics).forEach((value, key) => {
    const [id, field] = splitKey(key, 2) ?? [];
    if (id === undefined || field === undefined) return;
    const parts = byId.get(id) ?? emptyParts();
    addPart(parts, field, value);
    byId.set(id, parts);
  });
  return byId;
}

/** In the order they were created. */
export function listCustomTopics(doc: Y.Doc): CustomTopic[] {
  const topics: CustomTopic[] = [];
  for (const [id, parts] of readAll(doc)) {
    const topic = toTopic(id, parts);
    if (topic) topics.push(topic);
  }
  return topics.sort(
    (a, b) => compareInstants(a.createdAt ?? '', b.createdAt ?? '') || byCodeUnits(a.id, b.id),
  );
}

export function getCustomTopic(doc: Y.Doc, id: string): CustomTopic | null {
  return listCustomTopics(doc).find((t) => t.id === id) ?? null;
}

function existing(doc: Y.Doc, id: string): CustomTopic {
  const topic = getCustomTopic(doc, checkTopicId(id));
  if (!topic) throw invalidInput(`The group has no custom topic "${id}"; create it first.`);
  return topic;
}

/** Creates a topic and follows it, so its papers reach the inbox. Refuses an id already in use. */
export function createCustomTopic(
  doc: Y.Doc,
  input: CustomTopicInput,
  memberId: string,
  now: Date,
): CustomTopic {
  const name = checkText(input.name, 'topic name', MAX_NAME);
  const id = input.id === undefined ? customTopicIdOf(name) : checkTopicId(input.id);
  const by = checkMemberId(memberId);
  const at = checkNow(now);
  const phrases = [...new Set((input.phrases ?? []).map(checkPhrase))];
  const exemplars = [...new Set((input.exemplars ?? []).map(checkPaperId))];
  if (phrases.length > MAX_PHRASES) throw invalidInput(`A topic takes at most ${MAX_PHRASES} phrases.`);
  if (exemplars.length > MAX_EXEMPLARS)
    throw invalidInput(`A topic takes at most ${MAX_EXEMPLARS} exemplars.`);
  if (getCustomTopic(doc, id)) {
    throw invalidInput(`The group already has a custom topic "${id}"; edit it, or choose another name.`);
  }
  const map = rootMap(doc, ROOT.customTopics);
  writeGroup(doc, () => {
    map.set(joinKey(id, 'name'), name);
    map.set(joinKey(id, 'created'), { by, at });
    for (const phrase of phrases) map.set(joinKey(id, 'phrase', phrase), { by, at });
    for (const exemplar of exemplars) map.set(joinKey(id, 'exemplar', exemplar), { by, at });
    followTopicWrite(doc, customTopicSlug(id), by, at);
  });
  return { id, slug: customTopicSlug(id), name, phrases, exemplars, createdBy: by, createdAt: at };
}

export function renameCustomTopic(doc: Y.Doc, id: string, name: string): void {
  const topic = existing(doc, id);
  const text = checkText(name, 'topic name', MAX_NAME);
  writeGroup(doc, () => rootMap(doc, ROOT.customTopics).set(joinKey(topic.id, 'name'), text));
}

export function addCustomTopicPhrase(
  doc: Y.Doc,
  id: string,
  phrase: string,
  memberId: string,
  now: Date,
): void {
  const topic = existing(doc, id);
  const text = checkPhrase(phrase);
  const stamp = { by: checkMemberId(memberId), at: checkNow(now) };
  if (topic.phrases.includes(text)) return;
  if (topic.phrases.length >= MAX_PHRASES)
    throw invalidInput(`A topic takes at most ${MAX_PHRASES} phrases.`);
  writeGroup(doc, () => rootMap(doc, ROOT.customTopics).set(joinKey(topic.id, 'phrase', text), stamp));
}

export function removeCustomTopicPhrase(doc: Y.Doc, id: string, phrase: string): boolean {
  const topic = existing(doc, id);
  const key = joinKey(topic.id, 'phrase', normaliseText(phrase));
  const map = rootMap(doc, ROOT.customTopics);
  if (!map.has(key)) return false;
  writeGroup(doc, () => map.delete(key));
  return true;
}

export function addCustomTopicExemplar(
  doc: Y.Doc,
  id: string,
  paperId: string,
  memberId: string,
  now: Date,
): void {
  const topic = existing(doc, id);
  const exemplar = checkPaperId(paperId);
  const stamp = { by: checkMemberId(memberId), at: checkNow(now) };
  if (topic.exemplars.includes(exemplar)) return;
  if (topic.exemplars.length >= MAX_EXEMPLARS) {
    throw invalidInput(`A topic takes at most ${MAX_EXEMPLARS} exemplars.`);
  }
  writeGroup(doc, () => rootMap(doc, ROOT.customTopics).set(joinKey(topic.id, 'exemplar', exemplar), stamp));
}

export function removeCustomTopicExemplar(doc: Y.Doc, id: string, paperId: string): boolean {
  const topic = existing(doc, id);
  const key = joinKey(topic.id, 'exemplar', checkPaperId(paperId));
  const map = rootMap(doc, ROOT.customTopics);
  if (!map.has(key)) return false;
  writeGroup(doc, () => map.delete(key));
  return true;
}

/**
 * Deletes every key of the topic and unfollows it. A phrase a peer adds concurrently survives on its own
 * key, but without a name the topic does not exist, so nothing shows.
 */
export function deleteCustomTopic(doc: Y.Doc, id: string): boolean {
  const topicId = checkTopicId(id);
  const map = rootMap(doc, ROOT.customTopics);
  const prefix = joinKey(topicId, '');
  const keys = [...map.keys()].filter((k) => k.startsWith(prefix));
  if (keys.length === 0) return false;
  writeGroup(doc, () => {
    for (const key of keys) map.delete(key);
    unfollowTopicWrite(doc, customTopicSlug(topicId));
  });
  return true;
}
