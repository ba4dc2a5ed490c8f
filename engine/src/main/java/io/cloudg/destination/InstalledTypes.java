package io.cloudg.destination;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The {@link DestinationType}s on the class path, loaded once (the class path does not change while a process runs). */
final class InstalledTypes {
    static final Map<String, DestinationType> BY_TYPE;

    static {
        Map<String, DestinationType> m = new TreeMap<>();
        for (DestinationType t : ServiceLoader.load(DestinationType.class, DestinationType.class.getClassLoader())) {
            DestinationType before = m.putIfAbsent(t.type(), t);
            if (before != null && before.getClass() != t.getClass()) {
                throw new IllegalStateException("destination type " + t.type() + " is declared twice: "
                        + before.getClass().getName() + " and " + t.getClass().getName());
            }
        }
        BY_TYPE = Collections.unmodifiableMap(m);
    }

    private InstalledTypes() {
    }
}
