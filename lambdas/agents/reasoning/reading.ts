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

/** Where an item of a reading was read from, as the evidence cites it. */
export interface Cited {
  sourceLine: number;
  quote: string;
}

/** A member of a laid-out JSON rendering: one value, or a list whose elements each take a line. */
export type LaidMember = { key: string; value: unknown; from?: Cited | null } | { key: string; items: { value: unknown; from?: Cited | null }[] };

/**
 * A reading rendered as JSON the engine reads, laid out one member and one list element a line, with the item of the
 * reading each line came from: the engine cites the line a finding rests on (JSON positions), and the answer's evidence
 * cites the buyer's line that item was read from. Members with no value are left out, as `present` does.
 */
export function laidOut(members: LaidMember[]): { text: string; from: (Cited | undefined)[] } {
  const lines = ['{'];
  const from: (Cited | undefined)[] = [undefined];
  const kept = members.filter((m) => 'items' in m || (m.value !== null && m.value !== undefined && m.value !== ''));
  kept.forEach((m, i) => {
    const comma = i < kept.length - 1 ? ',' : '';
    if ('items' in m) {
      lines.push(`${JSON.stringify(m.key)}:[`);
      from.push(undefined);
      m.items.forEach((item, j) => {
        lines.push(`${JSON.stringify(item.value)}${j < m.items.length - 1 ? ',' : ''}`);
        from.push(item.from ?? undefined);
      });
      lines.push(`]${comma}`);
      from.push(undefined);
    } else {
      lines.push(`${JSON.stringify(m.key)}:${JSON.stringify(m.value)}${comma}`);
      from.push(m.from ?? undefined);
    }
  });
  lines.push('}');
  from.push(undefined);
  return { text: lines.join('\n'), from };
}
