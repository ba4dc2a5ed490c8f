package io.cloudg.preload;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

/**
 * A class loader that defines a few classes itself, from the test class path's bytes, under one lock shared by
 * all of them (as a jar file's lock is); once {@link #arm armed}, defining {@code gatedName} first enters
 * {@code monitor}, so that the thread loading it holds the shared lock while it waits for whoever holds the
 * monitor: the holder of issue 37's deadlock (cloud-sim's platform thread loading a class, waiting for a
 * monitor an unmounted virtual thread held).
 */
final class GatedLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final Set<String> own;
    private final String gatedName;
    private final Object monitor;
    private final Object jarLock = new Object();
    private volatile boolean armed;

    GatedLoader(ClassLoader parent, Set<String> own, String gatedName, Object monitor) {
        super("gated", parent);
        this.own = Set.copyOf(own);
        this.gatedName = gatedName;
        this.monitor = monitor;
    }

    void arm() {
        armed = true;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!own.contains(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            return c != null ? c : findClass(name);
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        synchronized (jarLock) {
            if (armed && name.equals(gatedName)) {
                synchronized (monitor) {
                    armed = false;
                }
            }
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] b = in.readAllBytes();
                return defineClass(name, b, 0, b.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
