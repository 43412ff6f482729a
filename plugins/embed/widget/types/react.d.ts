// `./react`: <PlatformChat {...options} /> (React is a peer dependency).
import type { CSSProperties, ReactElement } from 'react';
import type { PlatformChatOptions } from './index.d.ts';
export interface PlatformChatProps extends PlatformChatOptions { className?: string; style?: CSSProperties }
export function PlatformChat(props: PlatformChatProps): ReactElement;
export type { PlatformChatOptions };
