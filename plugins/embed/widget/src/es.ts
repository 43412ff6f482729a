// Entry platform-chat.es.js (the package's `.`): the imperative mount API,
// the client helpers and the types.
import { definePlatformChat, type PlatformChatElement } from './element.ts';
import type { PlatformChatOptions } from './options.ts';

export interface PlatformChatInstance {
  element: PlatformChatElement;
  /** Changes options in place. */
  update(options: Partial<PlatformChatOptions>): void;
  /** Removes the widget and stops its requests. */
  destroy(): void;
}

/** Mounts the chat into `target` (its only child is the widget). */
export function mountPlatformChat(target: HTMLElement, options: PlatformChatOptions): PlatformChatInstance {
  definePlatformChat();
  const element = document.createElement('platform-chat');
  Object.assign(element, options);
  target.appendChild(element);
  return {
    element,
    update: (changes) => void Object.assign(element, changes),
    destroy: () => element.remove(),
  };
}

export { definePlatformChat, PlatformChatElement } from './element.ts';
export { ChatClient, ApiError, CAPABILITY_KEYS } from './client.ts';
export { readFrames } from './sse.ts';
export { renderMarkdown } from './markdown-lazy.ts';
export type { PlatformChatOptions, TokenProvider, PlatformChatGlobal } from './options.ts';
export type { Manifest, Session, StoredMessage, UploadResult, Frame, Citation } from './types.ts';
