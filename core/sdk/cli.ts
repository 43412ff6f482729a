// agent-platform/sdk/cli: what a plugin's cli.ts needs to declare its
// commands, and nothing else, so that reading every plugin's commands
// (`platform --help`) loads no service, route or package of any plugin.
// The same exports as agent-platform/sdk's, from the same module.
export {
  defineCli, UsageError,
  type CliArgs, type CliCommand, type CliCommandInfo, type CliInput, type CommandDeclarer, type CliOption, type CliOptions, type CliProgress, type CliValues, type PluginCli,
} from '../cli/commands.ts';
export { serverFetch, serverOptions, serverToken, serverUrl } from '../cli/server.ts';
