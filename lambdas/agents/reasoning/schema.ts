/**
 * One description, two schemas: the JSON Schema a reading tool declares to Bedrock and the zod (mini) schema its
 * answer is checked with, built together so they cannot drift apart. Only what the readings need: objects (required
 * members, and optional ones that may be null or left out), arrays, strings, numbers, integers, booleans and enums.
 */
import * as z from '../../shared/zod.js';

export interface Shape {
  zod: z.ZodMiniType;
  json: Record<string, unknown>;
}

const described = (json: Record<string, unknown>, description?: string) => (description ? { ...json, description } : json);

export const string = (description?: string, minLength = 0): Shape => ({
  zod: minLength ? z.string().check(z.minLength(minLength)) : z.string(),
  json: described(minLength ? { type: 'string', minLength } : { type: 'string' }, description),
});
export const number = (description?: string, minimum?: number): Shape => ({
  zod: minimum === undefined ? z.number() : z.number().check(z.minimum(minimum)),
  json: described(minimum === undefined ? { type: 'number' } : { type: 'number', minimum }, description),
});
export const integer = (description?: string, minimum?: number): Shape => ({
  zod: minimum === undefined ? z.int() : z.int().check(z.minimum(minimum)),
  json: described(minimum === undefined ? { type: 'integer' } : { type: 'integer', minimum }, description),
});
export const boolean = (description?: string): Shape => ({ zod: z.boolean(), json: described({ type: 'boolean' }, description) });
export const isoDate = (description?: string): Shape => ({
  zod: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  json: described({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, description),
});
export const oneOf = (values: readonly [string, ...string[]], description?: string): Shape => ({
  zod: z.enum(values),
  json: described({ type: 'string', enum: [...values] }, description),
});
export const array = (items: Shape, description?: string, minItems = 0): Shape => ({
  zod: minItems ? z.array(items.zod).check(z.minLength(minItems)) : z.array(items.zod),
  json: described(minItems ? { type: 'array', items: items.json, minItems } : { type: 'array', items: items.json }, description),
});

/** An object: `required` members must be there; `optional` ones may be null or left out. Unknown members are dropped. */
export function object(required: Record<string, Shape>, optional: Record<string, Shape> = {}, description?: string): Shape {
  const members: Record<string, z.ZodMiniType> = {};
  const properties: Record<string, unknown> = {};
  for (const [name, shape] of Object.entries(required)) {
    members[name] = shape.zod;
    properties[name] = shape.json;
  }
  for (const [name, shape] of Object.entries(optional)) {
    members[name] = z.optional(z.nullable(shape.zod));
    const { description: about, ...json } = shape.json;
    properties[name] = { anyOf: [json, { type: 'null' }], ...(about ? { description: about } : {}) };
  }
  return {
    zod: z.object(members),
    json: described({ type: 'object', properties, required: Object.keys(required), additionalProperties: false }, description),
  };
}

/** Where an item of a reading was read: the 1-based line of its input field and that line's text, verbatim. */
export const SOURCE = {
  sourceLine: integer('The 1-based number of the line of this document the item was read from.', 1),
  quote: string('The text of that line, copied verbatim (the part that holds the item is enough).', 1),
};

/**
 * The last line of an item that spans several (an XML element, a JSON object laid out over lines, a wrapped receipt
 * line): its figures, dates and identifiers may be on any line from `sourceLine` to `lastLine`.
 */
export const SPAN = {
  lastLine: integer('When the item spans several lines (an XML or JSON element, a wrapped line), the 1-based number of its last line; else null.', 1),
};
