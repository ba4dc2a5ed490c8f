/**
 * The HTTP/1.1 front door (Netty), shared by AWS, Azure and the {@code /_sim} admin routes.
 *
 * <p>Requests are aggregated into an immutable {@link io.cloudg.sim.http.SimRequest} and handed to a
 * {@link io.cloudg.sim.http.HttpService} on the event loop; the estate is immutable and every handler is
 * non-blocking, so no worker pool is needed. A {@link io.cloudg.sim.http.SimResponse} may carry a delay
 * (latency model, {@code slow} faults), which is served with a timer on the same event loop rather than
 * by sleeping, or ask for the connection to be reset (SO_LINGER 0 then close, so the client sees a TCP
 * RST).
 */
package io.cloudg.sim.http;
