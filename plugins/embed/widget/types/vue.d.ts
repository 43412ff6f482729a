// `./vue`: <PlatformChat v-bind="options" /> (Vue 3 is a peer dependency).
import type { DefineComponent } from 'vue';
import type { PlatformChatOptions } from './index.d.ts';
export const PlatformChat: DefineComponent<PlatformChatOptions>;
export type { PlatformChatOptions };
