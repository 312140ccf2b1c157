export * from './momentum-types.ts';
export { computeMomentum, momentumDays, WINDOW_DAYS, DEFAULT_WEEKS, MAX_WEEKS } from './compute-momentum.ts';
export { momentumSentence, type SentenceCounts } from './momentum-sentence.ts';
export { rankRising, risingScore, RISING_Z, type RisingInput, type RisingScore } from './rising-rank.ts';
