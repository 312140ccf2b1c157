export * from './default-taxonomy.ts';
export * from './tag-hierarchy.ts';
export * from './tagging-engine.ts';
export * from './collection-stats.ts';
export * from './taxonomy-load.ts';
export * from './taxonomy-types.ts';
export { tokenise } from './tokenise.ts';
export * from './tag-calibration.ts';
export * from './tag-selection.ts';
