import { describe, expect, it } from 'vitest';
import { findCodeLinks } from './code-links.ts';

describe('findCodeLinks', () => {
  it('finds GitHub repositories with or without a scheme, as https', () => {
    expect(findCodeLinks('Code: http://github.com/acme/widget and github.com/acme/gadget')).toEqual([
      'https://github.com/acme/widget',
      'https://github.com/acme/gadget',
    ]);
    expect(findCodeLinks('see https://www.github.com/acme/widget')).toEqual([
      'https://github.com/acme/widget',
    ]);
  });

  it('strips trailing punctuation and LaTeX wrappers', () => {
    expect(findCodeLinks('Code is at https://github.com/acme/widget.')).toEqual([
      'https://github.com/acme/widget',
    ]);
    expect(findCodeLinks('(https://github.com/acme/widget), more')).toEqual([
      'https://github.com/acme/widget',
    ]);
    expect(findCodeLinks('at \\url{https://github.com/acme/widget}.')).toEqual([
      'https://github.com/acme/widget',
    ]);
    expect(findCodeLinks('\\href{https://github.com/acme/widget}{github.com/acme/widget}')).toEqual([
      'https://github.com/acme/widget',
    ]);
    expect(findCodeLinks('at https://github.com/acme/my\\_repo;')).toEqual([
      'https://github.com/acme/my_repo',
    ]);
  });

  it('cuts GitHub links to the repository', () => {
    expect(
      findCodeLinks(
        'https://github.com/acme/widget/tree/main/src, https://github.com/acme/widget.git, ' +
          'https://github.com/acme/widget#readme, https://github.com/Acme/Widget',
      ),
    ).toEqual(['https://github.com/acme/widget']);
  });

  it('ignores GitHub pages that are no repository', () => {
    expect(
      findCodeLinks(
        'https://github.com/acme https://github.com/features/copilot https://gist.github.com/acme/abc ' +
          'https://example.org/github.com/acme/widget https://notgithub.com/acme/widget',
      ),
    ).toEqual([]);
  });

  it('finds GitLab projects, nested groups included', () => {
    expect(
      findCodeLinks(
        'gitlab.com/group/project, https://gitlab.com/group/sub/project/-/tree/main and ' +
          'https://gitlab.com/group/project/blob/main/README.md https://gitlab.com/explore/projects',
      ),
    ).toEqual(['https://gitlab.com/group/project', 'https://gitlab.com/group/sub/project']);
  });

  it('finds Hugging Face models, datasets and spaces', () => {
    expect(
      findCodeLinks(
        'Weights: https://huggingface.co/acme/widget-7b/tree/main. Data: huggingface.co/datasets/acme/corpus, ' +
          'huggingface.co/datasets/squad. Demo: https://hf.co/spaces/acme/demo',
      ),
    ).toEqual([
      'https://huggingface.co/acme/widget-7b',
      'https://huggingface.co/datasets/acme/corpus',
      'https://huggingface.co/datasets/squad',
      'https://huggingface.co/spaces/acme/demo',
    ]);
  });

  it('ignores Hugging Face pages that are no repository', () => {
    expect(
      findCodeLinks(
        'https://huggingface.co/papers/2604.12345 https://huggingface.co/docs/transformers ' +
          'https://huggingface.co/acme https://huggingface.co/spaces/acme',
      ),
    ).toEqual([]);
  });

  it('deduplicates across texts in order of first appearance and skips absent texts', () => {
    expect(
      findCodeLinks(
        'models at huggingface.co/acme/m1, code at github.com/acme/widget',
        null,
        undefined,
        '',
        'Code: https://github.com/acme/widget; also https://gitlab.com/acme/tool',
      ),
    ).toEqual([
      'https://huggingface.co/acme/m1',
      'https://github.com/acme/widget',
      'https://gitlab.com/acme/tool',
    ]);
  });

  it('finds nothing in text without links', () => {
    expect(findCodeLinks('We study GitHub usage on github and gitlab.')).toEqual([]);
    expect(findCodeLinks()).toEqual([]);
  });

  it('finds a host written in any case or with LaTeX escapes in its path', () => {
    expect(findCodeLinks('Code: HTTPS://GITHUB.COM/Acme/my\\_tool and HF.co/org/model.')).toEqual([
      'https://github.com/Acme/my_tool',
      'https://huggingface.co/org/model',
    ]);
  });
});
