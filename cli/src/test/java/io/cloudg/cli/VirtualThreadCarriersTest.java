package io.cloudg.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Main#virtualThreadCarriers()}: how many carriers a JVM is given, with and without a class list. */
class VirtualThreadCarriersTest {
    static final String CARRIERS = "jdk.virtualThreadScheduler.parallelism";
    static final String LIST = "cloudg.preload.classes";
    private String carriers;
    private String list;

    @BeforeEach
    void save() {
        carriers = System.getProperty(CARRIERS);
        list = System.getProperty(LIST);
        System.clearProperty(CARRIERS);
        System.clearProperty(LIST);
    }

    @AfterEach
    void restore() {
        set(CARRIERS, carriers);
        set(LIST, list);
    }

    private static void set(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void withoutAClassListAJvmGetsACarrierForManyJobs() {
        Main.virtualThreadCarriers();
        assertThat(System.getProperty(CARRIERS)).isEqualTo(Integer.toString(Main.CARRIERS_WITHOUT_CLASS_LIST));
    }

    @Test
    void withAClassListAtLeastEightAndAGivenCountIsKept() {
        System.setProperty(LIST, "/some/cloudg.classes");
        Main.virtualThreadCarriers();
        String expected = Runtime.getRuntime().availableProcessors() < 8 ? "8" : null;
        assertThat(System.getProperty(CARRIERS)).isEqualTo(expected);
        System.clearProperty(LIST);
        System.setProperty(CARRIERS, "3");
        Main.virtualThreadCarriers();
        assertThat(System.getProperty(CARRIERS)).as("given on the command line: kept").isEqualTo("3");
    }
}
