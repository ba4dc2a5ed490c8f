package io.cloudg.gcp;

import com.google.api.gax.tracing.ApiTracer;
import com.google.api.gax.tracing.ApiTracerFactory;
import com.google.api.gax.tracing.SpanName;
import io.cloudg.resilience.Governor;

/**
 * Installed on the Cloud Asset client: gax asks it for a tracer per operation, that is per page with all
 * of that page's attempts, and the tracer ({@link PageTracer}) is what governs the page.
 */
final class GovernedTracerFactory implements ApiTracerFactory {
    private final Governor governor;

    GovernedTracerFactory(Governor governor) {
        this.governor = governor;
    }

    @Override
    public ApiTracer newTracer(ApiTracer parent, SpanName spanName, OperationType operationType) {
        return new PageTracer(governor, parent instanceof ListingTracer ? (ListingTracer) parent : null,
                spanName.getMethodName());
    }
}
