package io.cloudg.resilience.spi;


/** A held bulkhead slot. {@code id} is unique within its bulkhead for the life of the store. */
public record SlotLease(Scope bulkhead, long id) {
}
