// The console's entry: defines <platform-console>. Sections come later, each
// in its own chunk (sections/registry.ts).
import { PlatformConsole } from './shell.ts';

if (!customElements.get('platform-console')) customElements.define('platform-console', PlatformConsole);
