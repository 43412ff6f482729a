// Entry platform-chat.vue.js: <PlatformChat v-bind="options" /> for Vue 3 (a
// peer dependency, not bundled). Options are set as properties of the element.
import { defineComponent, h, onMounted, onUpdated, ref, type PropType } from 'vue';
import { definePlatformChat, type PlatformChatElement } from './element.ts';
import { ATTRIBUTES, type PlatformChatOptions, type TokenProvider } from './options.ts';
import type { Manifest } from './types.ts';

const names = [...Object.values(ATTRIBUTES), 'autoStart'] as (keyof PlatformChatOptions)[];
const props: Record<string, { type: PropType<unknown>; default: undefined }> = {};
for (const name of names) props[name] = { type: null as unknown as PropType<unknown>, default: undefined };

export const PlatformChat = defineComponent({
  name: 'PlatformChat',
  props: {
    ...props,
    getAccessToken: { type: Function as PropType<TokenProvider>, default: undefined },
    tokenProviders: { type: Object as PropType<Record<string, TokenProvider>>, default: undefined },
    hostManifest: { type: Object as PropType<Manifest>, default: undefined },
  },
  setup(componentProps) {
    definePlatformChat();
    const element = ref<PlatformChatElement | null>(null);
    const apply = () => {
      if (!element.value) return;
      for (const [name, value] of Object.entries(componentProps)) if (value !== undefined) (element.value as unknown as Record<string, unknown>)[name] = value;
    };
    onMounted(apply);
    onUpdated(apply);
    return () => h('platform-chat', { ref: element });
  },
});

export type { PlatformChatOptions } from './options.ts';
