package io.cloudg.sim.config;

import java.util.Locale;

/** What a fault rule does to a matching call. */
public enum FaultKind {
    /** The provider's throttling error (AWS throttling code, Azure 429, gRPC RESOURCE_EXHAUSTED). */
    THROTTLE,
    /** A server-side error the SDKs retry (AWS 500 InternalError, Azure 503, gRPC UNAVAILABLE). */
    TRANSIENT,
    /** The connection is reset without an answer (gRPC: UNAVAILABLE, as a reset stream surfaces). */
    RESET,
    /**
     * The connection is closed in order without an answer, as a server or a load balancer closes an idle
     * keep-alive connection the client just sent on (Apache's {@code NoHttpResponseException}, Netty's
     * {@code PrematureCloseException}; gRPC: UNAVAILABLE).
     */
    CLOSE,
    /** The provider's access-denied error. */
    ACCESS_DENIED,
    /** The call is answered normally after an extra delay. */
    SLOW;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    static FaultKind parse(SpecNode n) {
        String s = n.string(null);
        if (s == null) {
            throw n.error("required (one of throttle, transient, reset, close, access_denied, slow)");
        }
        for (FaultKind k : values()) {
            if (k.id().equals(s)) {
                return k;
            }
        }
        throw n.error("expected one of throttle, transient, reset, close, access_denied, slow, got \"" + s + "\"");
    }
}
