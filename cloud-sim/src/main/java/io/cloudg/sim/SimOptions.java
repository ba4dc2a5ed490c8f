package io.cloudg.sim;

import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.core.SimClock;
import java.util.Objects;

/**
 * How to start a simulator. Immutable; build with {@link #builder()}.
 *
 * @param host        interface to bind (loopback by default)
 * @param port        HTTP port for AWS, Azure and {@code /_sim} (0: any free port)
 * @param gcpPort     plaintext gRPC port for GCP Cloud Asset (0: any free port)
 * @param estate      the estate
 * @param faults      initial fault rules
 * @param seed        seed for ids, fault probabilities and latency jitter; null: the estate file's seed,
 *                    else {@link #DEFAULT_SEED}
 * @param clock       the clock quotas, windows and faults read
 * @param httpThreads Netty event-loop threads
 */
public record SimOptions(String host, int port, int gcpPort, EstateSpec estate, FaultSpec faults, Long seed,
                         SimClock clock, int httpThreads) {

    public static final long DEFAULT_SEED = 42L;

    public SimOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(estate, "estate");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(clock, "clock");
        if (port < 0 || port > 65535 || gcpPort < 0 || gcpPort > 65535) {
            throw new IllegalArgumentException("ports must be 0..65535");
        }
        if (httpThreads < 1) {
            throw new IllegalArgumentException("httpThreads must be positive");
        }
    }

    /** The seed in effect. */
    public long effectiveSeed() {
        return seed != null ? seed : estate.seed() != null ? estate.seed() : DEFAULT_SEED;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static SimOptions defaults() {
        return builder().build();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.port = port;
        b.gcpPort = gcpPort;
        b.estate = estate;
        b.faults = faults;
        b.seed = seed;
        b.clock = clock;
        b.httpThreads = httpThreads;
        return b;
    }

    /** Builder with the defaults: loopback, random ports, the demo estate, no faults, real clock. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private int gcpPort;
        private EstateSpec estate = EstateSpec.defaultEstate();
        private FaultSpec faults = FaultSpec.NONE;
        private Long seed;
        private SimClock clock = SimClock.system();
        private int httpThreads = Math.max(2, Runtime.getRuntime().availableProcessors());

        public Builder host(String h) {
            this.host = h;
            return this;
        }

        public Builder port(int p) {
            this.port = p;
            return this;
        }

        public Builder gcpPort(int p) {
            this.gcpPort = p;
            return this;
        }

        public Builder estate(EstateSpec e) {
            this.estate = e;
            return this;
        }

        public Builder faults(FaultSpec f) {
            this.faults = f;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder clock(SimClock c) {
            this.clock = c;
            return this;
        }

        public Builder httpThreads(int n) {
            this.httpThreads = n;
            return this;
        }

        public SimOptions build() {
            return new SimOptions(host, port, gcpPort, estate, faults, seed, clock, httpThreads);
        }
    }
}
