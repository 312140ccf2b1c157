import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'server/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/eval/**/*.test.ts',
    ],
    testTimeout: 60_000,
    // Eighteen integration files import or harvest the whole corpus (26,845 papers) in a setup hook:
    // 10-20 s on an idle machine, up to 55 s with the suite's own forks beside it at a load of 10.
    hookTimeout: 150_000,
    pool: 'forks',
  },
});
