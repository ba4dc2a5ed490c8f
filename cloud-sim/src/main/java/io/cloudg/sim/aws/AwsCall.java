package io.cloudg.sim.aws;

import io.cloudg.sim.core.SimClock;
import io.cloudg.sim.estate.AwsEstate;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.paging.Pager;

/**
 * One AWS API call, as handlers see it.
 *
 * @param service   the service
 * @param operation the action name
 * @param region    the signing region ({@code global} for global services)
 * @param principal the caller
 * @param requestId the request id echoed in the answer
 * @param http      the raw request
 * @param context   the estate and the simulator's shared AWS state
 * @param meter     what the answer lists (handlers that list things count their items here)
 */
public record AwsCall(AwsService service, String operation, String region, AwsPrincipal principal, String requestId,
                      SimRequest http, AwsContext context, Meter meter) {

    /** Counts the items one answer lists, for the per-item latency. Used by one request thread. */
    public static final class Meter {
        private int items;

        public void items(int n) {
            items = n;
        }

        public int items() {
            return items;
        }
    }

    public String account() {
        return principal.account();
    }

    public AwsEstate estate() {
        return context.estate();
    }

    public SimClock clock() {
        return context.clock();
    }

    /** Shared state every AWS handler may read. */
    public record AwsContext(AwsEstate estate, AwsPrincipals principals, SimClock clock, Pager pager) {
    }
}
