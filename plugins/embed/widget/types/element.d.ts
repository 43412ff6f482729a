// `./element`: defines <platform-chat> as a side effect.
import type { PlatformChatElement } from './index.d.ts';
export { PlatformChatElement } from './index.js';
declare global {
  interface HTMLElementTagNameMap { 'platform-chat': PlatformChatElement }
}
