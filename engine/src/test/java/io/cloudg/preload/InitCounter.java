package io.cloudg.preload;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the initialisations of {@link ClassPreloadTest}'s classes; public, as a class another loader defines reads it. */
public final class InitCounter {
    public static final AtomicInteger PROBES = new AtomicInteger();
    public static final AtomicInteger PURES = new AtomicInteger();

    private InitCounter() {
    }
}
