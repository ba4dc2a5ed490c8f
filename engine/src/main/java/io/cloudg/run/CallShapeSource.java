package io.cloudg.run;

/**
 * One provider's {@link CallShape}s: its planner knows how its collectors' calls grow, this package does not.
 * Each provider declares one in {@code META-INF/services/io.cloudg.run.CallShapeSource}; a collector no source
 * knows is a plain listing of a service named after it ({@link CallShapes}). Implementations MUST have a
 * public no-argument constructor and MUST answer the same shape for a collector every time.
 */
public interface CallShapeSource {
    /** The provider whose collectors it knows ({@code aws}). */
    String provider();

    /** The shape of {@code collector}, or null when it is a plain listing. */
    CallShape shapeOf(String collector);
}
