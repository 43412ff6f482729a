// The private-network guard for patterns that open their own connections (a
// PostgreSQL source): the host must resolve to public addresses only, unless
// PIPELINES_ALLOW_PRIVATE_NETWORKS allows loopback and private ones. HTTP
// patterns use core.http.fetch, which checks at connect time.
import { lookup } from 'node:dns/promises';
import { badRequest, isPrivateAddress } from 'agent-platform/sdk';

/** The address to connect to (resolved once, so a second lookup cannot differ). */
export async function guardedAddress(host: string, allowPrivateNetworks: boolean): Promise<string> {
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw badRequest(`The host "${host}" does not resolve`, 'SOURCE_HOST_UNRESOLVED');
  }
  if (!allowPrivateNetworks && addresses.some((a) => isPrivateAddress(a.address))) {
    throw badRequest(`The host "${host}" is a private or loopback address (PIPELINES_ALLOW_PRIVATE_NETWORKS is off)`, 'SOURCE_HOST_BLOCKED');
  }
  return addresses[0]!.address;
}
