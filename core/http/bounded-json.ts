// A joi schema for free JSON objects in request bodies (a Form.io schema,
// dynamic field values, a service area, a source's configuration): nested at
// most MAX_JSON_DEPTH levels. Every payload is also bounded as a whole by the
// text guard (MAX_PAYLOAD_DEPTH), which walks all of it; this bound is the
// tighter one a free-form field keeps to, whatever envelope carries it.
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
