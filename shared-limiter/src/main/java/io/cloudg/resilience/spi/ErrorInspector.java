package io.cloudg.resilience.spi;

/**
 * Teaches the classifier to read one family of exceptions (an SDK's service exceptions, say) without
 * this module depending on that SDK.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (declare them in
 * {@code META-INF/services/io.cloudg.resilience.spi.ErrorInspector}) or registered on a
 * {@link io.cloudg.resilience.Classifier}. Contract:
 * <ul>
 *   <li>{@link #inspect(Throwable)} MUST look at the given throwable only; the classifier walks the
 *       cause chain itself and asks every inspector about every link.</li>
 *   <li>It MUST return null for a throwable it does not recognise, and MUST NOT throw.</li>
 *   <li>It MUST be thread-safe and cheap: it runs on every failed call.</li>
 * </ul>
 */
@FunctionalInterface
public interface ErrorInspector {
    ErrorFacts inspect(Throwable t);
}
