// The tests' harness is the SDK's (core/sdk/testing.ts, offered to partner
// plugins as agent-platform/sdk/testing): startTestPlatform, tenantWithAdmin,
// until, runCli, createTestDatabase.
export * from '../core/sdk/testing.ts';
