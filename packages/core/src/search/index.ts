export * from './highlight.ts';
export * from './person-name.ts';
export * from './query-syntax.ts';
export * from './search-build.ts';
export * from './search-config.ts';
export * from './search-dto.ts';
export * from './search-run.ts';
export * from './search-result.ts';
export * from './related-papers.ts';
export {
  AUTHOR_SEPARATOR,
  authorFilterKey,
  columnTerms,
  columnTermsAndLength,
  normaliseSearchText,
  phraseTerms,
  queryTermsOf,
  tokenizeField,
  tokenizeSearchText,
  wordSequence,
} from './search-text.ts';
