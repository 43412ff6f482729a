// The named schemas of the document (components.schemas): one name per joi
// schema object, so a schema reused by several routes is one component; two
// schemas with the same name and the same content are one component too (a
// labelled object made `.required()` elsewhere is a copy of it). Two
// different schemas that want the same name get the second a suffix from its
// use (`Tenant`, then `TenantOfGetTenant`), never a counter alone.
import type { Schema } from 'joi';
import type { Names } from './joi-schema.ts';
import type { JsonSchema } from './json-schema.ts';

export class Components implements Names {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly byJoi = new Map<Schema, string>();
  private readonly building = new Set<string>();
  /** What names the schema being converted now when its own name is taken (the operation's). */
  context = '';

  named(joi: Schema, name: string, build: () => JsonSchema): JsonSchema {
    const known = this.byJoi.get(joi);
    if (known) return refTo(known);
    // A schema that contains itself (a joi link) ends in a reference to the name being built.
    if (this.building.has(name)) return refTo(name);
    this.building.add(name);
    let content: JsonSchema;
    try {
      content = build();
    } finally {
      this.building.delete(name);
    }
    const chosen = this.place(name, content);
    this.byJoi.set(joi, chosen);
    return refTo(chosen);
  }

  /** The name `content` is stored under: `name` when free or holding the same content, else a qualified one. */
  private place(name: string, content: JsonSchema): string {
    const serialized = JSON.stringify(content);
    const candidates = [name, this.context ? `${name}Of${this.context}` : `${name}Alt`];
    for (const candidate of candidates) {
      const existing = this.schemas[candidate];
      if (existing === undefined) {
        this.schemas[candidate] = content;
        return candidate;
      }
      if (JSON.stringify(existing) === serialized) return candidate;
    }
    for (let n = 2; ; n++) {
      const candidate = `${candidates[1]}${n}`;
      const existing = this.schemas[candidate];
      if (existing === undefined) {
        this.schemas[candidate] = content;
        return candidate;
      }
      if (JSON.stringify(existing) === serialized) return candidate;
    }
  }

  /** Components sorted by name (a stable document whatever the routes' order). */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}

export function refTo(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}
