import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { LOG_LEVEL: 'SILENT' },
    maxWorkers: 2,
    // The cdk.out* directories of each test file's CDK apps are removed after it (test/support/cdk-outdir.ts).
    setupFiles: ['./test/support/cdk-outdir.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // A synthesis takes seconds alone and far longer on a busy machine: the infra tests get three minutes each.
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 180_000 } },
      // One real part at a time (the chain, the local Step Functions endpoint), each started by its own file.
      { extends: true, test: { name: 'components', include: ['test/components/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // The HTTP suites share one embedded service started the way `npm start` starts it.
          globalSetup: ['./test/support/global-embedded.ts'],
        },
      },
    ],
  },
});
