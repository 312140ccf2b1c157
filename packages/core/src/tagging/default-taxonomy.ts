import calibrationData from '../../taxonomy/calibration.json' with { type: 'json' };
import data from '../../taxonomy/taxonomy.json' with { type: 'json' };
import { Calibration } from './tag-calibration.ts';
import { loadTaxonomy, type Taxonomy } from './taxonomy-load.ts';

let cached: Taxonomy | undefined;
let calibration: Calibration | undefined;

/** Quire's built-in taxonomy (packages/core/taxonomy/taxonomy.json), validated once. */
export function defaultTaxonomy(): Taxonomy {
  cached ??= loadTaxonomy(data);
  return cached;
}

/**
 * The calibration fitted for the built-in taxonomy (taxonomy/calibration.json). Only that taxonomy uses it:
 * a group's custom topics, or an edited copy, have other score distributions.
 */
export function defaultCalibration(): Calibration {
  calibration ??= new Calibration(calibrationData);
  return calibration;
}

export function isDefault(taxonomy: Taxonomy): boolean {
  return taxonomy.version === data.version;
}

/**
 * What, besides a topic's definition, decides which of its tags a paper keeps: the calibration's version
 * for the built-in taxonomy (a refit changes every topic's kept tags), nothing for any other. Part of each
 * topic's definition hash, so a refit re-tags the store.
 */
export function selectionVersion(taxonomy: Taxonomy): string {
  return isDefault(taxonomy) ? defaultCalibration().version : '';
}
