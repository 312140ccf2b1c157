export * from './errors.ts';
export * from './paper.ts';
