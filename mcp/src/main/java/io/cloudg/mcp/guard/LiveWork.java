package io.cloudg.mcp.guard;

/**
 * The body of a live operation. It runs on a guard thread; when the operation times out or the server
 * stops, that thread is interrupted, so the work MUST let {@link InterruptedException} (or the mapper's
 * interruption error) end it.
 *
 * @param <R> what it produces
 */
@FunctionalInterface
public interface LiveWork<R> {
    R run(String operationId) throws Exception;
}
