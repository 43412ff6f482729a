// The states of an outbox message, in the order a message goes through them.
export const STATES = ['held', 'pending', 'sending', 'failed', 'sent', 'dead'] as const;
