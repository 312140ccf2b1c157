// The search thread's entry: the server runs from TypeScript source (under tsx, or vitest), and a worker
// thread starts as plain Node, so it registers tsx's loader before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./search-worker.ts');
