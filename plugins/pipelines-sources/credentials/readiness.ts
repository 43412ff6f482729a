// The credential-policy readiness check (/readyz): in vault mode the
// store must be able to seal and open with the master key (a round trip with
// the store's own additional-data shape); legacy_inline seals inline values
// with the same key, so it is checked the same way.
import { randomBytes } from 'node:crypto';
import type { CoreServices } from 'agent-platform/sdk';

export function credentialPolicyCheck(core: CoreServices) {
  return async (): Promise<string | undefined> => {
    const probe = randomBytes(16).toString('hex');
    const context = 'pipeline-credential:readiness:probe:1';
    return core.secrets.open(core.secrets.seal(probe, context), context) === probe ? undefined : 'the credential store cannot open what it sealed';
  };
}
