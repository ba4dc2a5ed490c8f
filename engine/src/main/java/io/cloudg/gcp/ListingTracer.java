package io.cloudg.gcp;

import com.google.api.gax.tracing.ApiTracer;
import io.cloudg.resilience.SlotHold;
import io.cloudg.resilience.TaskLedger;

/**
 * The parent tracer of every page of one listing, put in the call context by {@link GcpListing}: it does
 * nothing itself, and tells {@link GovernedTracerFactory} which scope the pages are governed in, which
 * further quota they are charged to, which slot they share and which ledger records their losses. gax hands it to the factory as the parent of
 * each page's tracer, on whatever thread sends that page.
 */
final class ListingTracer implements ApiTracer {
    final io.cloudg.resilience.spi.Scope scope;
    /** The organization's quota, or null. */
    final io.cloudg.resilience.CallOptions.ChargedQuota charged;
    final SlotHold hold;
    final TaskLedger ledger;

    ListingTracer(io.cloudg.resilience.spi.Scope scope, io.cloudg.resilience.CallOptions.ChargedQuota charged, SlotHold hold,
                  TaskLedger ledger) {
        this.scope = scope;
        this.charged = charged;
        this.hold = hold;
        this.ledger = ledger;
    }
}
