/**
 * The fleet's wire protocol: small versioned records encoded as JSON by
 * {@link io.cloudg.fleet.protocol.MessageCodec}. {@link io.cloudg.fleet.protocol.TaskMessage}s go from the
 * coordinator to workers; {@link io.cloudg.fleet.protocol.ResultMessage}s (started, asset chunks, done with
 * coverage and throttling counters, abandoned) come back; {@link io.cloudg.fleet.protocol.DeadLetter}s hold
 * what nobody could use, with the reason; {@link io.cloudg.fleet.protocol.JournalEntry}s let a coordinator
 * resume a run. Every record checks itself when built, so a message that decodes is a message that can be
 * used; {@link io.cloudg.fleet.protocol.Wire} words every refusal. No message ever carries a credential.
 */
package io.cloudg.fleet.protocol;
