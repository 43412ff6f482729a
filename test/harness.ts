// The tests' harness is the SDK's (core/sdk/testing.ts, also offered to
// partner plugins as agent-platform/sdk): startTestPlatform, tenantWithAdmin,
// until, runCli, createTestDatabase.
export * from '../core/sdk/testing.ts';
