// Entry platform-chat.react.js: <PlatformChat {...options} /> for React (a
// peer dependency, not bundled). Options are set as properties of the element.
import { createElement, useLayoutEffect, useRef, type CSSProperties } from 'react';
import { definePlatformChat, type PlatformChatElement } from './element.ts';
import type { PlatformChatOptions } from './options.ts';

export interface PlatformChatProps extends PlatformChatOptions {
  className?: string;
  style?: CSSProperties;
}

export function PlatformChat(props: PlatformChatProps) {
  definePlatformChat();
  const ref = useRef<PlatformChatElement | null>(null);
  const { className, style, ...options } = props;
  // A layout effect: the properties land in the commit that inserts the element, before it starts.
  useLayoutEffect(() => {
    if (ref.current) Object.assign(ref.current, options);
  });
  return createElement('platform-chat', { ref, class: className, style });
}

export type { PlatformChatOptions } from './options.ts';
