// The capability keys: what a chat surface declares it can show
// (display widgets), how it wants widgets delivered (widget_stream) and
// whether it can answer a blocking question (ask_user). Exactly these six;
// anything else is refused with a 400 by the route's validation.
import { WIDGET_KEYS, type ParserConfig } from '../widgets/stream-parser.ts';

export const CAPABILITY_KEYS = [...WIDGET_KEYS, 'widget_stream', 'ask_user'] as const;
export type CapabilityKey = (typeof CAPABILITY_KEYS)[number];

export interface Capabilities {
  keys: CapabilityKey[];
  /** Display widgets the agent may emit: only the declared ones; none without keys. */
  widgets: string[];
  /** `widget_stream`: lift complete widgets into `widget` frames. */
  widgetStream: boolean;
  /** ask_user may block; without the key the agent gets an immediate fallback. */
  askUser: boolean;
}

export function capabilitiesOf(keys: readonly string[] | undefined): Capabilities {
  const unique = [...new Set(keys ?? [])] as CapabilityKey[];
  return {
    keys: unique,
    widgets: WIDGET_KEYS.filter((key) => unique.includes(key)),
    widgetStream: unique.includes('widget_stream'),
    askUser: unique.includes('ask_user'),
  };
}

export function parserConfigOf(capabilities: Capabilities): ParserConfig {
  return { declared: new Set(capabilities.widgets), lift: capabilities.widgetStream };
}

/** What the system prompt tells the model about the surface (so it writes what can be shown). */
export function surfaceInstructions(capabilities: Capabilities): string {
  if (capabilities.widgets.length === 0) {
    return 'This chat surface shows plain text (Markdown) only: never write widget tags.';
  }
  const tags = capabilities.widgets.map((key) => `<${key}>{json}</${key}>`).join(', ');
  return `This chat surface can display these widgets: ${tags}. Write a widget as its tag around one JSON object, `
    + 'inline in your answer. Do not use any other widget tag.';
}
