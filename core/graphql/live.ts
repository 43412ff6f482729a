// What GraphQL subscriptions of plugins are made of: a Repeater (with a
// sliding buffer, so a slow client loses the oldest events, not the server's
// memory) and `filter` for a subscription's per-client condition. From
// graphql-yoga's subscription package, without loading the server itself.
export { filter, Repeater, SlidingBuffer } from '@graphql-yoga/subscription';
