package io.cloudg.sim.http;

/** Answers one request. Must not block: it runs on the event loop. */
@FunctionalInterface
public interface HttpService {
    SimResponse handle(SimRequest request);
}
