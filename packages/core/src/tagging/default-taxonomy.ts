import calibrationData from '../../taxonomy/calibration.json' with { type: 'json' };
import neighbourCalibrationData from '../../taxonomy/calibration-neighbours.json' with { type: 'json' };
import data from '../../taxonomy/taxonomy.json' with { type: 'json' };
import topicModelData from '../../taxonomy/topic-models.json' with { type: 'json' };
import { CoreError } from '../errors.ts';
import { Calibration } from './tag-calibration.ts';
import type { TopicModelFile } from './topic-model.ts';
import { loadTaxonomy, type Taxonomy } from './taxonomy-load.ts';

let cached: Taxonomy | undefined;
let calibration: Calibration | undefined;
let neighbourCalibration: Calibration | undefined;

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

/**
 * The calibration read when a paper's neighbours are given (taxonomy/calibration-neighbours.json, fitted
 * by train-calibration.ts with QUIRE_NEIGHBOURS=1): the built-in taxonomy's only, like the other.
 */
export function defaultNeighbourCalibration(): Calibration {
  neighbourCalibration ??= new Calibration(neighbourCalibrationData);
  return neighbourCalibration;
}

/**
 * The learned per-topic models for the built-in taxonomy (taxonomy/topic-models.json, fitted by
 * tests/eval/train-topic-models.ts); like the calibration, only that taxonomy uses them.
 */
export function defaultTopicModels(): TopicModelFile {
  return asTopicModels(topicModelData);
}

/** The JSON file's shape, checked: JSON's inferred types are wider than [feature, weight] pairs. */
function asTopicModels(raw: unknown): TopicModelFile {
  const file = raw as Partial<TopicModelFile> | null;
  if (!file || typeof file.version !== 'string' || typeof file.topics !== 'object' || !file.topics) {
    throw new CoreError(
      'invalid-taxonomy',
      'packages/core/taxonomy/topic-models.json is not a topic model file; run `pnpm eval train-topic-models --write` again.',
    );
  }
  return file as TopicModelFile;
}

export function isDefault(taxonomy: Taxonomy): boolean {
  return taxonomy.version === data.version;
}

/**
 * What, besides a topic's definition, decides which of its tags a paper keeps: the calibration's version
 * (and the learned models', when any ship) for the built-in taxonomy (a refit changes every topic's kept
 * tags), nothing for any other. Part of each topic's definition hash, so a refit re-tags the store.
 */
export function selectionVersion(taxonomy: Taxonomy): string {
  if (!isDefault(taxonomy)) return '';
  const models = defaultTopicModels();
  // An empty model file changes no tag, so it leaves every definition hash as it was.
  return Object.keys(models.topics).length > 0
    ? `${defaultCalibration().version}+${models.version}`
    : defaultCalibration().version;
}
