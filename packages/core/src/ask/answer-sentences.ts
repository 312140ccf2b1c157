import { STOPWORDS, tokenise } from '../tagging/tokenise.ts';

/**
 * "Ask about this topic": retrieval, not generation. The question's words are matched against every
 * sentence of the topic's abstracts with BM25 (sentences as documents), and the best sentences come back
 * with the paper they cite. Nothing is written that a paper did not say.
 */
export interface AskablePaper {
  id: string;
  title: string;
  abstract: string;
  listingDate: string | null;
}

export interface AnswerSentence {
  paperId: string;
  title: string;
  listingDate: string | null;
  sentence: string;
  score: number;
  /** Question words found in the sentence, for highlighting. */
  matched: string[];
}

const K1 = 1.2;
const B = 0.75;
/** A sentence from a paper whose title matches the question is a little more likely to answer it. */
const TITLE_BONUS = 0.15;

/** Splits an abstract into sentences, keeping "e.g." / "et al." / decimals / inline maths together. */
export function splitSentences(text: string): string[] {
  const protectedText = text
    .replace(/\$[^$]*\$/g, (m) => m.replace(/\./g, '\u2024'))
    .replace(/\b(e\.g|i\.e|et al|vs|cf|Fig|Eq|Sec)\./g, (m) => m.replace(/\./g, '\u2024'))
    .replace(/(\d)\.(\d)/g, '$1\u2024$2');
  return protectedText
    .split(/(?<=[.!?])\s+(?=[A-Z0-9(\\$"'])/)
    .map((s) =>
      s
        .replace(/\u2024/g, '.')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s.length >= 20);
}

/** Words that shape a question but say nothing about its subject. */
const QUESTION_WORDS = new Set([
  'how',
  'what',
  'why',
  'who',
  'whom',
  'wher',
  'when',
  'doe',
  'did',
  'done',
  'there',
  'any',
  'best',
]);

function questionTerms(question: string): string[] {
  const words = tokenise(question).lower.filter(
    (w) => w.length > 1 && !STOPWORDS.has(w) && !QUESTION_WORDS.has(w),
  );
  return [...new Set(words)];
}

export function answerSentences(
  question: string,
  papers: readonly AskablePaper[],
  limit = 5,
): AnswerSentence[] {
  const terms = questionTerms(question);
  if (terms.length === 0) return [];
  const docs: { paper: AskablePaper; sentence: string; words: string[]; titleHit: boolean }[] = [];
  for (const paper of papers) {
    const titleWords = new Set(tokenise(paper.title).lower);
    const titleHit = terms.some((t) => titleWords.has(t));
    for (const sentence of splitSentences(paper.abstract)) {
      docs.push({ paper, sentence, words: tokenise(sentence).lower, titleHit });
    }
  }
  if (docs.length === 0) return [];
  const avgLength = docs.reduce((s, d) => s + d.words.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) {
    const seen = new Set(d.words);
    for (const t of terms) if (seen.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const scored: AnswerSentence[] = [];
  for (const d of docs) {
    let score = 0;
    const matched: string[] = [];
    for (const t of terms) {
      const n = d.words.filter((w) => w === t).length;
      if (n === 0) continue;
      matched.push(t);
      const idf = Math.log(1 + (docs.length - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
      score += (idf * n * (K1 + 1)) / (n + K1 * (1 - B + (B * d.words.length) / avgLength));
    }
    if (score === 0) continue;
    // Sentences that cover more of the question rank above ones repeating a single word.
    score *= 0.5 + (0.5 * matched.length) / terms.length;
    if (d.titleHit) score *= 1 + TITLE_BONUS;
    scored.push({
      paperId: d.paper.id,
      title: d.paper.title,
      listingDate: d.paper.listingDate,
      sentence: d.sentence,
      score: Math.round(score * 1000) / 1000,
      matched,
    });
  }
  scored.sort((a, b) => b.score - a.score || (a.paperId < b.paperId ? -1 : 1));
  // One sentence per paper, so the answer cites several papers rather than one abstract.
  const out: AnswerSentence[] = [];
  const cited = new Set<string>();
  for (const s of scored) {
    if (cited.has(s.paperId)) continue;
    cited.add(s.paperId);
    out.push(s);
    if (out.length >= limit) break;
  }
  return out;
}
