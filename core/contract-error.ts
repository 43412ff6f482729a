// A plugin that breaks the plugin contract at boot (an event type another
// plugin registered, an invalid declaration): the boot stops with this one line.
export class PluginContractError extends Error {
  override name = 'PluginContractError';
}
