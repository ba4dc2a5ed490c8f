package io.cloudg.collect;

import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.CircuitOpenException;
import io.cloudg.resilience.Classification;
import io.cloudg.resilience.Classifier;
import io.cloudg.resilience.spi.ErrorClass;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.Reasons;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.time.TimeSource;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns how a collector ended into its coverage entry, the rules in one place:
 * <ul>
 *   <li>an error escaped: FAILED; a throttled or transient one reads {@code throttled: ...} /
 *       {@code transient: ...} (the ledger's first give-up when there is one), a fatal one is the
 *       provider's code and message ({@code AccessDenied: ...});</li>
 *   <li>it kept what it listed but a {@link TruncatedListingException} says the listing was cut short:
 *       PARTIAL, {@code listing truncated: throttled: ...};</li>
 *   <li>it listed everything but an {@link IncompleteItemsException} says some per-item calls failed:
 *       PARTIAL, {@code 1 of 12 per-item call(s) failed: GetBucketLocation on b: AccessDenied: ...};</li>
 *   <li>it finished but its ledger holds calls that gave up or were skipped by an open circuit: PARTIAL,
 *       with the ledger's reason;</li>
 *   <li>otherwise SUCCESS.</li>
 * </ul>
 * Errors are read by the classifier of the governor the calls went through, never a process-wide one.
 */
public final class Coverage {
    private final Classifier classifier;
    private final TimeSource time;

    public Coverage(Classifier classifier, TimeSource time) {
        this.classifier = Objects.requireNonNull(classifier);
        this.time = Objects.requireNonNull(time);
    }

    /** The rules with {@code governor}'s classifier and clock. */
    public static Coverage of(Governor governor) {
        return new Coverage(governor.classifier(), governor.time());
    }

    public static ServiceCoverage finished(String service, long assets, TaskLedger ledger) {
        Optional<String> incomplete = ledger.incompleteReason();
        return incomplete.map(r -> new ServiceCoverage(service, CoverageStatus.PARTIAL, assets, r))
                .orElseGet(() -> ServiceCoverage.success(service, assets));
    }

    public ServiceCoverage failed(String service, long assets, Throwable error, TaskLedger ledger) {
        if (error instanceof IncompleteItemsException) {
            // calls the governor gave up on lead (throttled: ...), as for any entry the ledger makes PARTIAL
            String lost = ledger == null ? null : ledger.incompleteReason().orElse(null);
            return new ServiceCoverage(service, CoverageStatus.PARTIAL, assets,
                    lost == null ? error.getMessage() : lost + "; " + error.getMessage());
        }
        if (error instanceof TruncatedListingException) {
            return new ServiceCoverage(service, CoverageStatus.PARTIAL, assets,
                    error.getMessage() + ": " + errorText(error.getCause(), ledger));
        }
        return new ServiceCoverage(service, CoverageStatus.FAILED, assets, errorText(error, ledger));
    }

    /** The {@code error} text of a collector that let {@code e} escape. */
    public String errorText(Throwable e, TaskLedger ledger) {
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CircuitOpenException) {
                return Reasons.circuitOpen(t.getMessage());
            }
        }
        Classification c = classifier.explain(root, time.epochMillis());
        if (c.errorClass() == ErrorClass.FATAL) {
            return c.summary();
        }
        Optional<String> lost = ledger == null ? Optional.empty() : ledger.incompleteReason();
        return Reasons.prefixed(c.errorClass(), lost.orElse(c.summary()));
    }
}
