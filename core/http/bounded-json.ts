// A joi schema for free JSON objects in request bodies (a Form.io schema,
// dynamic field values, a service area): nested at most MAX_JSON_DEPTH levels,
// so that nothing deeper than the text guard walks reaches the database.
import Joi from 'joi';

export const MAX_JSON_DEPTH = 32;

function depthWithin(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return false;
    for (const child of Object.values(item as object)) stack.push([child, depth + 1]);
  }
  return true;
}

/** A JSON object nested at most MAX_JSON_DEPTH levels, labelled for errors and the OpenAPI document. */
export const boundedJson = (label: string) => Joi.object().unknown(true).custom((value, helpers) =>
  depthWithin(value, MAX_JSON_DEPTH) ? value : helpers.message({ custom: `{{#label}} is nested deeper than ${MAX_JSON_DEPTH} levels` }),
).label(label);
