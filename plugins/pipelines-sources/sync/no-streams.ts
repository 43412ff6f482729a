// A sync with no enabled stream to read is refused (a manual start), skipped
// (a schedule's occurrence) or failed (a run whose streams were disabled after
// it was queued): never a silent success with nothing read.

/** The error code, and the prefix of the reason a schedule or a run records. */
export const NO_ENABLED_STREAMS = 'NO_ENABLED_STREAMS';

export const noEnabledStreamsMessage = (streams?: string[] | null) => (streams?.length
  ? `None of the streams named (${streams.join(', ')}) is an enabled stream of this source`
  : 'The source has no enabled stream to sync')
  + ': discover its streams and enable them (or apply the discovery: POST /sources/discover with apply: true) first';
