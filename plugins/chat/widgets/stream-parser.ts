// A streaming filter over the model's text deltas, applying the widget rules
// of the capability keys as tokens arrive (a tag may be split across any number of chunks):
//  - a widget tag the surface did not declare is removed, content and all,
//    from what is streamed and from what is stored;
//  - a declared widget passes through inline (`<report_widget>{json}</report_widget>`),
//    unless the surface declared `widget_stream`: then the complete widget is
//    lifted out of the text into its own output (a `widget` frame) while the
//    stored text keeps the inline tags;
//  - a `<citations>` block is never streamed as text: it is kept aside, resolved
//    at the end of the turn, and sent as a `citations` frame (stored resolved).
// Text outside tags is released at once, except a trailing `<…` that may still
// become a tag, which waits for the next delta.

import { FlatText } from '../model/flat-text.ts';

export const WIDGET_KEYS = ['map_widget', 'report_widget', 'webxr_widget', 'generate_widget'] as const;

export type ParserOutput =
  | { kind: 'text'; text: string }
  | { kind: 'widget'; widgetType: string; data: Record<string, unknown> };

type Mode = 'strip' | 'lift' | 'citations';

interface SpecialTag {
  name: string;
  open: string;
  close: string;
  mode: Mode;
}

export interface ParserConfig {
  /** Widget keys the surface declared (e.g. `report_widget`). */
  declared: ReadonlySet<string>;
  /** `widget_stream` was declared: lift complete widgets into frames. */
  lift: boolean;
}

/** `report_widget` → `report` (the frame's widget_type). */
export const widgetTypeOf = (key: string) => key.replace(/_widget$/, '');

export class WidgetStreamParser {
  /** The text to store so far (see `persisted`). */
  private readonly stored = new FlatText();
  /** Raw `<citations>…</citations>` blocks, in order. */
  readonly citationBlocks: string[] = [];
  /** Widget types sent as frames. */
  readonly liftedWidgets: string[] = [];
  /** Widgets removed: undeclared, malformed JSON in lift mode, or cut off. */
  dropped = 0;

  private readonly tags: SpecialTag[];
  private buffer = '';
  private inside: SpecialTag | undefined;
  /** Inside a tag: where to look for its close tag next (skips what was searched). */
  private searchFrom = 0;

  constructor(config: ParserConfig) {
    const tags: SpecialTag[] = [];
    for (const key of WIDGET_KEYS) {
      const declared = config.declared.has(key);
      if (declared && !config.lift) continue; // inline: plain text
      tags.push({ name: key, open: `<${key}>`, close: `</${key}>`, mode: declared ? 'lift' : 'strip' });
    }
    tags.push({ name: 'citations', open: '<citations>', close: '</citations>', mode: 'citations' });
    this.tags = tags;
  }

  /** The text to store: what was streamed, plus lifted widgets inline. */
  get persisted(): string {
    return this.stored.toString();
  }

  push(delta: string): ParserOutput[] {
    this.buffer += delta;
    const out: ParserOutput[] = [];
    for (;;) {
      if (this.inside) {
        if (!this.consumeInside(out)) break;
        continue;
      }
      if (!this.consumeOutside(out)) break;
    }
    return out;
  }

  /** The stream ended: release held text; a tag left open is dropped. */
  end(): ParserOutput[] {
    const out: ParserOutput[] = [];
    if (this.inside) {
      if (this.inside.mode !== 'citations') this.dropped++;
      this.inside = undefined;
    } else if (this.buffer) {
      this.text(out, this.buffer);
    }
    this.buffer = '';
    return out;
  }

  private text(out: ParserOutput[], text: string): void {
    if (!text) return;
    this.stored.append(text);
    const last = out.at(-1);
    if (last?.kind === 'text') last.text += text;
    else out.push({ kind: 'text', text });
  }

  /** Returns true when it entered a tag (more to do), false when it needs more input. */
  private consumeOutside(out: ParserOutput[]): boolean {
    let from = 0;
    for (;;) {
      const lt = this.buffer.indexOf('<', from);
      if (lt === -1) {
        this.text(out, this.buffer);
        this.buffer = '';
        return false;
      }
      const rest = this.buffer.slice(lt, lt + 32);
      const opened = this.tags.find((tag) => rest.startsWith(tag.open));
      if (opened) {
        this.text(out, this.buffer.slice(0, lt));
        this.buffer = this.buffer.slice(lt + opened.open.length);
        this.inside = opened;
        this.searchFrom = 0;
        return true;
      }
      const maybe = rest.length < 32 && this.tags.some((tag) => tag.open.startsWith(rest));
      if (maybe && lt + rest.length === this.buffer.length) {
        // "<rep" at the end: wait for the next delta to tell.
        this.text(out, this.buffer.slice(0, lt));
        this.buffer = this.buffer.slice(lt);
        return false;
      }
      from = lt + 1;
    }
  }

  /** Returns true when the tag closed (more to do), false when it needs more input. */
  private consumeInside(out: ParserOutput[]): boolean {
    const tag = this.inside!;
    const at = this.buffer.indexOf(tag.close, this.searchFrom);
    if (at === -1) {
      this.searchFrom = Math.max(0, this.buffer.length - tag.close.length + 1);
      return false;
    }
    const content = this.buffer.slice(0, at);
    this.buffer = this.buffer.slice(at + tag.close.length);
    this.inside = undefined;
    if (tag.mode === 'citations') {
      this.citationBlocks.push(`${tag.open}${content}${tag.close}`);
    } else if (tag.mode === 'strip') {
      this.dropped++;
    } else {
      const data = parseWidget(content);
      if (data) {
        const widgetType = widgetTypeOf(tag.name);
        this.stored.append(`${tag.open}${content}${tag.close}`);
        this.liftedWidgets.push(widgetType);
        out.push({ kind: 'widget', widgetType, data });
      } else {
        this.dropped++;
      }
    }
    return true;
  }
}

function parseWidget(content: string): Record<string, unknown> | undefined {
  try {
    const data = JSON.parse(content.trim());
    return data && typeof data === 'object' && !Array.isArray(data) ? data : undefined;
  } catch {
    return undefined;
  }
}
