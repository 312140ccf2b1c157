/**
 * Bumped when the engine's reading changes (not a topic's definition): part of every topic's definition
 * hash, so stored tags made by an older engine are re-made.
 * 2: sentence roles, local co-occurrence, no tag on one generic word, a choice of direct tags per paper.
 * 3: a sentence's weight is kept exactly (a background sentence's 0.6 was read as 0.6000000238…).
 */
export const ENGINE_VERSION = 3;
