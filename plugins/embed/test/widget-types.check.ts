// The chat widget's published declarations (plugins/embed/widget/types/*.d.ts)
// against its sources (plugins/embed/widget/src), checked by the type-check of
// `npm test` (this file runs nothing). The declarations are written by hand:
// they present <platform-chat> as an HTMLElement with the options, not as the
// LitElement it is, so that a host needs no Lit types. Each entry exports the
// same values as its source; every type is the source's own (assignable both
// ways), and every value of the source fits its declaration.
import type * as Source from '../widget/src/es.ts';
import type * as SourceElement from '../widget/src/ce.ts';
import type * as SourceReact from '../widget/src/react.ts';
import type * as SourceVue from '../widget/src/vue.ts';
import type * as Declared from '../widget/types/index.d.ts';
import type * as DeclaredElement from '../widget/types/element.d.ts';
import type * as DeclaredReact from '../widget/types/react.d.ts';
import type * as DeclaredVue from '../widget/types/vue.d.ts';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Fits<A, B> = [A] extends [B] ? true : false;
function check<T extends true>(): T | undefined { return undefined; }

// The same value exports, entry by entry.
check<Same<keyof typeof Source, keyof typeof Declared>>();
check<Same<keyof typeof SourceElement, keyof typeof DeclaredElement>>();
check<Same<keyof typeof SourceReact, keyof typeof DeclaredReact>>();
check<Same<keyof typeof SourceVue, keyof typeof DeclaredVue>>();

// The types: the sources' own.
check<Same<Source.PlatformChatOptions, Declared.PlatformChatOptions>>();
check<Same<Source.TokenProvider, Declared.TokenProvider>>();
check<Same<Source.PlatformChatGlobal, Declared.PlatformChatGlobal>>();
check<Same<Source.Manifest, Declared.Manifest>>();
check<Same<Source.Session, Declared.Session>>();
check<Same<Source.Citation, Declared.Citation>>();
check<Same<Source.StoredMessage, Declared.StoredMessage>>();
check<Same<Source.UploadResult, Declared.UploadResult>>();
check<Same<Source.Frame, Declared.Frame>>();
check<Same<SourceReact.PlatformChatProps, DeclaredReact.PlatformChatProps>>();
check<Same<SourceReact.PlatformChatOptions, DeclaredReact.PlatformChatOptions>>();
check<Same<SourceVue.PlatformChatOptions, DeclaredVue.PlatformChatOptions>>();

// The values: each fits its declaration.
check<Fits<Source.PlatformChatInstance, Declared.PlatformChatInstance>>();
check<Fits<typeof Source.mountPlatformChat, typeof Declared.mountPlatformChat>>();
check<Fits<typeof Source.definePlatformChat, typeof Declared.definePlatformChat>>();
check<Fits<typeof Source.PlatformChatElement, typeof Declared.PlatformChatElement>>();
check<Fits<typeof SourceElement.PlatformChatElement, typeof DeclaredElement.PlatformChatElement>>();
check<Fits<typeof Source.ChatClient, typeof Declared.ChatClient>>();
check<Fits<typeof Source.ApiError, typeof Declared.ApiError>>();
check<Fits<typeof Source.CAPABILITY_KEYS, typeof Declared.CAPABILITY_KEYS>>();
check<Fits<typeof Source.readFrames, typeof Declared.readFrames>>();
check<Fits<typeof Source.renderMarkdown, typeof Declared.renderMarkdown>>();
check<Fits<typeof SourceReact.PlatformChat, typeof DeclaredReact.PlatformChat>>();
// The Vue component's declared type is DefineComponent<PlatformChatOptions>: its
// runtime props come from the options' attribute table, which types them loosely.
