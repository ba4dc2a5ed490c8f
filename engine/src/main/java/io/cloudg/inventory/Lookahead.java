package io.cloudg.inventory;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * An iterator over a source read one element at a time (a JSON parser, a database cursor): {@link #fetch}
 * returns the next element, or null when there is none; {@link #hasNext} reads ahead by one.
 */
public abstract class Lookahead<T> implements Iterator<T> {
    private T next;
    private boolean done;

    /** The next element, or null at the end; called at most once after it returned null. */
    protected abstract T fetch();

    @Override
    public final boolean hasNext() {
        if (next == null && !done) {
            next = fetch();
            done = next == null;
        }
        return next != null;
    }

    @Override
    public final T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        T t = next;
        next = null;
        return t;
    }
}
