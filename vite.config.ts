import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * The client is always a production build, whoever builds it. Vite takes React's development
 * bundles (and the jsx-dev-runtime) when NODE_ENV is already set to something else, as it is
 * in vitest's global setup (NODE_ENV=test) — ~45 KiB more gzipped on every page. NODE_ENV is
 * 'production' while the config resolves and the bundle is written, then restored for the
 * process that asked for the build (a test runner or `npm start`).
 */
function productionBuild(): Plugin {
  let saved: { value: string | undefined } | undefined;
  const restore = () => {
    if (!saved) return;
    if (saved.value === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved.value;
    saved = undefined;
  };
  return {
    name: 'fancy:production-build',
    apply: 'build',
    enforce: 'pre',
    config() {
      if (process.env.NODE_ENV === 'production') return;
      saved = { value: process.env.NODE_ENV };
      process.env.NODE_ENV = 'production';
    },
    closeBundle: restore,
  };
}

export default defineConfig({
  plugins: [productionBuild(), react(), tailwindcss()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/dev': { target: 'http://localhost:3000' },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/**/*.api.test.ts', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['src/**/*.api.test.ts', 'tests/process/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
      {
        extends: true,
        test: {
          // Needs a PostgreSQL server: TEST_DATABASE_URL (run by .ci/run).
          name: 'pg',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
    ],
  },
});
