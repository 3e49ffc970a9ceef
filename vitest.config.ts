import { defineConfig } from 'vitest/config'

/**
 * Three projects: `unit` (pure code in packages and the web app's lib), `server` (integration
 * through app.inject, each test file on its own fresh database) and `e2e` (journeys in Chromium
 * against the real server process; scripts/test.mjs builds the web app first).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/web/*.test.ts',
            'apps/server/src/**/*.test.ts',
          ],
          environment: 'node',
          // The property tests are bounded by their run counts (the ledger's 1,500 sequences take
          // 3 s on an idle machine); 5 s failed them on a loaded one, which says nothing about code.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          // One browser at a time: two cores shared with the server under test.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A page waits on the server it talks to: give expect.poll the time a loaded CI
          // machine needs (its default second is shorter than one slow render).
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
})
