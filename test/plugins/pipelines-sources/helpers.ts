// The sources tests' helpers (a platform with two tenants, user tokens, an
// upstream database, stored rows) for the tests under test/plugins that use
// them; they live beside the plugin, in plugins/pipelines-sources/test/.
export * from '../../../plugins/pipelines-sources/test/helpers.ts';
