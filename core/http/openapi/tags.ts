// The document's tags: one per plugin, named and described as the root
// README's plugin table ("## Plugins": `| [name](link) | what it does |`)
// lists them and in its order, after the core's own tag. A plugin the table
// does not list (a partner's) follows, by name, with no description.
export interface Tag { name: string; description?: string }

export const CORE_TAG: Tag = { name: 'core', description: 'The core: health, readiness, metrics and the platform functions' };

/** The plugin table of a README: name and description of each row, in order. */
export function pluginTable(readme: string): Tag[] {
  const section = readme.split(/^## /m).find((part) => /^Plugins\s*$/m.test(part.split('\n')[0]));
  if (!section) return [];
  const tags: Tag[] = [];
  for (const line of section.split('\n')) {
    const row = /^\|\s*\[([^\]]+)\]\([^)]*\)\s*\|\s*(.+?)\s*\|\s*$/.exec(line);
    if (!row) continue;
    const description = row[2].replace(/\\\|/g, '|').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
    tags.push({ name: row[1], description });
  }
  return tags;
}

/** The tags of the plugins in `used` (and core when used), core first, then the table's order, then the rest by name. */
export function orderedTags(table: Tag[], used: Set<string>): Tag[] {
  const listed = table.filter((tag) => used.has(tag.name));
  const known = new Set([CORE_TAG.name, ...listed.map((tag) => tag.name)]);
  const rest = [...used].filter((name) => !known.has(name)).sort().map((name) => ({ name }));
  return [...(used.has(CORE_TAG.name) ? [CORE_TAG] : []), ...listed, ...rest];
}
