import { describe, expect, it } from 'vitest';
import { defaultTaxonomy } from './default-taxonomy.ts';
import { Calibration, CALIBRATION_FEATURES } from './tag-calibration.ts';
import { compileTaxonomy } from './tagging-engine.ts';

describe('tag calibration', () => {
  it('gives every direct tag of the built-in taxonomy its confidence as evidence', () => {
    const engine = compileTaxonomy(defaultTaxonomy());
    const tags = engine.tag({
      id: '2612.00002',
      title: '3D Gaussian Splatting for Real-Time Rendering of Large Scenes',
      abstract:
        'We render large scenes with 3D Gaussian splatting in real time, with a level-of-detail scheme for ' +
        'the Gaussians and a new rasteriser for novel view synthesis.',
      categories: ['cs.CV', 'cs.GR'],
    });
    expect(tags.map((t) => t.slug)).toContain('3d-gaussian-splatting');
    for (const tag of tags) {
      const line = tag.evidence.find((e) => e.rule === 'confidence');
      expect(line?.detail).toMatch(/^a reader agrees with such a tag about \d+% of the time$/);
    }
  });

  it('maps the weighted features through the logistic function', () => {
    const features = [...CALIBRATION_FEATURES];
    const weights = features.map((_, i) => (i === 0 ? 2 : 0));
    const calibration = new Calibration({ version: 't', features, weights, bias: -1 });
    // z = -1 + 2 · 0.5 = 0: even odds.
    expect(calibration.probability(features.map((_, i) => (i === 0 ? 0.5 : 7)))).toBeCloseTo(0.5, 10);
    // z = -1 + 2 · 1 = 1: 1 / (1 + e^-1) = 0.7311.
    expect(calibration.probability(features.map((_, i) => (i === 0 ? 1 : 0)))).toBeCloseTo(0.7311, 4);
  });

  it("adds a topic's own shift of the log-odds, and none for a topic it never learnt (own keys only)", () => {
    const features = [...CALIBRATION_FEATURES];
    const weights = features.map(() => 0);
    const calibration = new Calibration({ version: 't', features, weights, bias: 0, topicBias: { a: 1 } });
    const x = features.map(() => 0);
    expect(calibration.probability(x, 'a')).toBeCloseTo(0.7311, 4);
    expect(calibration.probability(x, 'b')).toBe(0.5);
    expect(calibration.probability(x, 'constructor')).toBe(0.5);
    expect(calibration.probability(x)).toBe(0.5);
  });

  it('refuses weights fitted on other features, saying how to refit', () => {
    expect(() => new Calibration({ version: 'old', features: ['log-ratio'], weights: [1], bias: 0 })).toThrow(
      /fitted on other features; run tests\/eval\/train-calibration.ts again/,
    );
  });
});
