/**
 * Reads the metrics lambdas/shared/metrics.ts writes: turns metrics on as on the embedded default when asked
 * (PAYCALL_METRICS=stdout, a log level that is not SILENT), captures stdout, and parses each EMF line into
 * { name, value, unit, dimensions } per metric, with the dimension values of the line.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { flushMetrics } from '../../../lambdas/shared/metrics.js';

export interface EmittedMetric {
  name: string;
  value: number | number[];
  unit: string;
  /** The line's dimension set: its keys and their values. */
  dimensions: Record<string, string>;
  namespace: string;
}

interface EmfLine {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** Metrics on (as PAYCALL_METRICS=stdout does off Lambda) and stdout captured; `emitted()` parses what was written. */
export function captureMetrics() {
  vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', undefined as unknown as string);
  vi.stubEnv('PAYCALL_METRICS', 'stdout');
  vi.stubEnv('LOG_LEVEL', 'INFO');
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const lines = () =>
    write.mock.calls
      .map(([chunk]) => String(chunk).trim())
      .filter((text) => text.startsWith('{') && text.includes('"_aws"'))
      .map((text) => JSON.parse(text) as EmfLine);
  const emitted = (): EmittedMetric[] =>
    lines().flatMap((line) =>
      line._aws.CloudWatchMetrics.flatMap((directive) => {
        expect1(directive.Dimensions.length === 1, 'each data point has exactly one dimension set');
        const dimensions = Object.fromEntries(directive.Dimensions[0].map((key) => [key, String(line[key])]));
        return directive.Metrics.map((metric) => ({
          name: metric.Name,
          unit: metric.Unit,
          value: line[metric.Name] as number | number[],
          dimensions,
          namespace: directive.Namespace,
        }));
      }),
    );
  return { write, lines, emitted, named: (name: string) => emitted().filter((metric) => metric.name === name) };
}

export type CapturedMetrics = ReturnType<typeof captureMetrics>;

/**
 * captureMetrics around every test of a file: captured before each test, flushed and every stub restored after. The
 * handle reads the current test's capture.
 */
export function capturePerTest(): CapturedMetrics {
  let current: CapturedMetrics;
  beforeEach(() => {
    current = captureMetrics();
  });
  afterEach(() => {
    flushMetrics();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });
  return {
    get write() {
      return current.write;
    },
    lines: () => current.lines(),
    emitted: () => current.emitted(),
    named: (name: string) => current.named(name),
  };
}

function expect1(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
