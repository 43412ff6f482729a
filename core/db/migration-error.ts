// A migration that cannot be applied, or a ledger that does not match the
// files: the boot stops with this one-line message.
export class MigrationError extends Error {
  override name = 'MigrationError';
}
