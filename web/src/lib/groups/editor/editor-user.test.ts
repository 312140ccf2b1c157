import { describe, expect, it } from 'vitest';
import { userField } from './editor-user.ts';

describe('userField', () => {
  it('carries the member’s name and colour, the selection a lighter shade of it', () => {
    expect(userField({ name: ' Ben ', colour: '#1f77b4' })).toEqual({
      name: 'Ben',
      color: '#1f77b4',
      colorLight: '#1f77b433',
    });
  });

  it('falls back to grey and a neutral name for what a peer could not have meant', () => {
    expect(userField({ name: '  ', colour: 'red; background: url(x)' })).toEqual({
      name: 'A member',
      color: '#808080',
      colorLight: '#80808033',
    });
  });
});
