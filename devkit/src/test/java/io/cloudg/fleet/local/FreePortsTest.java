package io.cloudg.fleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    @Test
    void aPairIsTwoFreeNeighboursBelowTheEphemeralRange() throws Exception {
        int start = FreePorts.ephemeralRangeStart();
        for (int i = 0; i < 20; i++) {
            int p = FreePorts.pair();
            if (start - 2 > FreePorts.LOWEST) {
                assertThat(p).isBetween(FreePorts.LOWEST, start - 2);
            }
            try (ServerSocket a = new ServerSocket(p, 1, InetAddress.getLoopbackAddress());
                 ServerSocket b = new ServerSocket(p + 1, 1, InetAddress.getLoopbackAddress())) {
                assertThat(b.getLocalPort()).isEqualTo(a.getLocalPort() + 1);
            }
        }
    }

    @Test
    void aPortTakenOrWithATakenNeighbourIsPassedOver() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int t = taken.getLocalPort();
            int free = FreePorts.next();
            java.util.Iterator<Integer> offered = java.util.List.of(t, t, free).iterator();
            assertThat(FreePorts.pick(1, offered::next)).isEqualTo(free);
            int pair = FreePorts.pair();
            java.util.Iterator<Integer> pairs = java.util.List.of(t - 1, pair).iterator(); // t - 1's neighbour is taken
            assertThat(FreePorts.pick(2, pairs::next)).isEqualTo(pair);
        }
    }

    @Test
    void noFreePortAmongTheOnesOfferedIsAnErrorThatSaysSo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> FreePorts.pick(1, taken::getLocalPort))
                    .isInstanceOf(IllegalStateException.class).hasMessage("no free port in 100 attempts");
        }
    }
}
