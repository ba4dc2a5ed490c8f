/**
 * Classes loaded on platform threads before collector jobs start on virtual threads (issue 37).
 *
 * <p>Why: on JDK 25 a virtual thread that loads a class (the JVM's own load when code first names a class, or
 * {@code Class.forName}) has a native frame on its stack and cannot unmount there; blocked inside the load (on a
 * class's loading lock, a jar file's lock, or waiting for another thread's class initializer) it holds its carrier.
 * When every carrier is held that way and the lock's holder waits for a monitor an unmounted virtual thread holds,
 * that virtual thread has no carrier to finish on and the process stops for good. No blocking there compensates
 * with an extra carrier (only file and DNS I/O do), so more carriers only make it rarer. A map's start is where
 * it happens: thousands of jobs start together and all load the same SDK classes on their first call.
 *
 * <p>{@link io.cloudg.preload.ClassPreload} loads the classes a map loads ({@link io.cloudg.preload.ClassList}:
 * the list the build's class-data training map wrote, which the launcher names) on a few platform threads, where
 * blocking holds no carrier, and every place that starts virtual-thread jobs waits for it first
 * ({@link io.cloudg.preload.ClassPreload#awaitLoaded()}): the embedded map's {@code TaskRunner} and a fleet
 * worker's job pool. A class the JVM already loaded for a class loader is resolved by the JVM for it without
 * calling the loader, so no job blocks in its load. Commands that map start it early
 * ({@link io.cloudg.preload.ClassPreload#start()}) so that it overlaps their own start.
 *
 * <p>This package depends on nothing of cloudg's.
 */
package io.cloudg.preload;
