package io.cloudg.run;

/**
 * One provider's {@link CallShape}s: its planner knows how its collectors' calls grow, this package does not.
 * Each provider declares one in {@code META-INF/services/io.cloudg.run.CallShapeSource}; a collector no source
 * knows is a plain listing of a service named after it ({@link CallShapes}). Implementations MUST have a
 * public no-argument constructor (the shapes at the provider's default settings) and MUST answer the same shape
 * for a collector every time. Where a setting changes a shape, the configuration builds a source for its settings
 * and a run takes {@link CallShapes#with} it ({@code CloudGConfig.callShapes()}).
 */
public interface CallShapeSource {
    /** The provider whose collectors it knows ({@code aws}). */
    String provider();

    /** The shape of {@code collector}, or null when it is a plain listing. */
    CallShape shapeOf(String collector);
}
