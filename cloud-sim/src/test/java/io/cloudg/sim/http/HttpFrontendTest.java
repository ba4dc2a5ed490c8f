package io.cloudg.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.config.LatencySpec;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.Counters;
import io.cloudg.sim.gate.Gate;
import io.cloudg.sim.core.InFlight;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.gate.Verdict;
import io.cloudg.sim.fault.FaultEngine;
import io.cloudg.sim.quota.Neighbour;
import io.cloudg.sim.quota.QuotaBook;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The HTTP frontend counts the calls it is answering, from arrival to answer (the latency included), overall and
 * for the account the gate attributes each to; a request that never reaches the gate (an admin route, a refused
 * one) does not count.
 */
class HttpFrontendTest {
    /** Answers {@code /call/ACCOUNT?latency=ms} through a gate as an EC2 call of ACCOUNT, {@code /admin} without one. */
    static HttpService service(Gate gate) {
        return req -> {
            if (!req.path().startsWith("/call/")) {
                return SimResponse.status(200).body("text/plain", "admin").build();
            }
            String account = req.path().substring("/call/".length());
            Verdict v = gate.enter(new CallScope(Provider.AWS, account, "us-east-1", "ec2", "DescribeVpcs"), List.of());
            long latency = Duration.ofMillis(Long.parseLong(req.queryParam("latency"))).toNanos();
            return SimResponse.status(200).body("text/plain", "ok").build().withDelay(v.delayNanos() + latency);
        };
    }

    static Gate gate(Counters counters) {
        ManualClock clock = new ManualClock();
        return new Gate(new QuotaBook(clock, false, s -> Neighbour.NONE, 1), new FaultEngine(FaultSpec.NONE, clock, 1),
            LatencySpec.NONE, Duration.ZERO, 1, counters);
    }

    @Test
    void callsCountFromArrivalToAnswerOverallAndPerAccount() throws Exception {
        Counters counters = new Counters();
        InFlight inFlight = counters.inFlight();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (HttpFrontend http = new HttpFrontend("127.0.0.1", 0, 2, service(gate(counters)), inFlight)) {
            String base = "http://127.0.0.1:" + http.port();
            // answered at once, one after the other: each counted, then not
            for (int i = 0; i < 5; i++) {
                assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/call/111111111111?latency=0")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            }
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/admin")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("admin");
            InFlight.Snapshot quiet = inFlight.snapshot();
            assertThat(quiet.now()).isZero();
            assertThat(quiet.peak()).isEqualTo(1);
            assertThat(quiet.perAccount()).containsOnlyKeys("aws/111111111111");

            // 30 calls of one account and 20 of another answered a minute late: all in flight at once
            List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                String account = i < 30 ? "222222222222" : "333333333333";
                slow.add(client.sendAsync(HttpRequest.newBuilder(URI.create(base + "/call/" + account + "?latency=60000"))
                    .build(), HttpResponse.BodyHandlers.ofString()));
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (inFlight.snapshot().now() < 50 && System.nanoTime() < deadline) {
                Thread.sleep(20); // waiting for the requests to arrive, not timing anything
            }
            InFlight.Snapshot busy = inFlight.snapshot();
            assertThat(busy.now()).isEqualTo(50);
            assertThat(busy.peak()).isEqualTo(50);
            assertThat(busy.perAccount().get("aws/222222222222")).isEqualTo(new InFlight.Peak(30, 30));
            assertThat(busy.perAccount().get("aws/333333333333")).isEqualTo(new InFlight.Peak(20, 20));
            assertThat(busy.perAccount().get("aws/111111111111")).isEqualTo(new InFlight.Peak(0, 1));
            assertThat(busy.highestAccountPeak()).isEqualTo(30);
            slow.forEach(f -> f.cancel(true));
        }
    }

    @Test
    void aCallEndedTwiceCountsOnceAndOneNeverAttributedNotAtAll() {
        Counters counters = new Counters();
        InFlight inFlight = counters.inFlight();
        Gate gate = gate(counters);
        InFlight.Request call = inFlight.begin();
        gate.enter(new CallScope(Provider.AZURE, "sub-1", "global", "arm", "ListResources"), List.of());
        gate.enter(new CallScope(Provider.AZURE, "sub-1", "global", "arm", "ListResources"), List.of()); // once per request
        inFlight.unbind();
        InFlight.Request admin = inFlight.begin();
        inFlight.unbind();
        assertThat(inFlight.snapshot().now()).isEqualTo(1);
        inFlight.end(call);
        inFlight.end(call);
        inFlight.end(admin);
        assertThat(inFlight.snapshot()).isEqualTo(new InFlight.Snapshot(0, 1,
            java.util.Map.of("azure/sub-1", new InFlight.Peak(0, 1))));
    }
}
