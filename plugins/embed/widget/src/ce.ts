// Entry platform-chat.ce.js: defines <platform-chat> as a side effect.
import { definePlatformChat } from './element.ts';

definePlatformChat();

export { PlatformChatElement } from './element.ts';
