/** What a family's reading is (readings.ts lists them), and the helpers every family's reading uses. */
import { SOURCE, number, object, type Shape } from './schema.js';
import type { Claim, Sum } from './grounding.js';

export interface Reading {
  /** The tool's input schema (JSON Schema) and the check of its answer (zod), built together. */
  shape: Shape;
  /** Which input fields the model reads (the others go to the engine as the buyer wrote them). */
  fields: string[];
  /** What to read, for the system prompt. */
  instructions: string;
  claims(reading: any): Claim[];
  sums(reading: any): Sum[];
  /** The engine's input from the reading (and the fields the model does not read, from `input`). */
  render(reading: any, input: Record<string, unknown>): Record<string, string>;
  /**
   * The item a line of the rendered field was rendered from (1-based), so evidence the engine cites from the rendering
   * can cite the buyer's line instead; absent for renderings that are JSON (one line, no line per item).
   */
  sourceOf?(reading: any, field: string, renderedLine: number): { sourceLine: number; quote: string } | undefined;
}

/** An amount as read, with the line it was read from. */
export interface Money {
  amount: number;
  sourceLine: number;
  quote: string;
}

export const money = (description: string) => object({ amount: number(description), ...SOURCE });
export const at = (field: string, list: string, i: number) => `${field}.${list}[${i}]`;
export const sumCents = (values: number[]) => values.reduce((total, v) => total + Math.round(v * 100), 0) / 100;
export const present = <T extends Record<string, unknown>>(record: T): Partial<T> =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined && v !== '')) as Partial<T>;
