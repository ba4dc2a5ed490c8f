package io.cloudg.sim.azure;

import java.util.List;

/**
 * The {@code api-version}s ARM accepts on the routes the simulator serves; any other is refused with HTTP 400
 * as ARM refuses it ({@link AzureErrors#invalidApiVersion}, {@link AzureErrors#graphApiVersion}).
 *
 * <p>Microsoft.Resources (subscriptions, tenants, resource groups, resources): the versions ARM lists in its
 * {@code InvalidApiVersionParameter} answers (as of its 2024-08-01 version), plus 2025-04-01, which the
 * current SDKs send (Java {@code azure-resourcemanager-resources} 2.53, Node {@code @azure/arm-resources} 8);
 * {@code SubscriptionClient} sends 2022-12-01. Microsoft.ResourceGraph {@code resources}: the versions its
 * {@code NoRegisteredProviderFound} answer lists (Java {@code azure-resourcemanager-resourcegraph} 1.1 sends
 * 2021-03-01, Node {@code @azure/arm-resourcegraph} 5 sends 2024-04-01). A newer SDK whose version is not
 * here is refused, as an ARM that has not rolled that version out would: add it here.
 */
final class AzureApiVersions {
    private AzureApiVersions() {
    }

    /** Newest first, as ARM lists them. */
    static final List<String> RESOURCE_MANAGER = List.of("2025-04-01", "2024-08-01", "2024-06-01-preview", "2024-03-01",
        "2023-07-01", "2023-07-01-preview", "2023-03-01-preview", "2022-12-01", "2022-11-01-preview", "2022-09-01",
        "2022-06-01", "2022-05-01", "2022-03-01-preview", "2022-01-01", "2021-04-01", "2021-01-01", "2020-10-01",
        "2020-09-01", "2020-08-01", "2020-07-01", "2020-06-01", "2020-05-01", "2020-01-01", "2019-11-01", "2019-10-01",
        "2019-09-01", "2019-08-01", "2019-07-01", "2019-06-01", "2019-05-10", "2019-05-01", "2019-03-01", "2018-11-01",
        "2018-09-01", "2018-08-01", "2018-07-01", "2018-06-01", "2018-05-01", "2018-02-01", "2018-01-01", "2017-12-01",
        "2017-08-01", "2017-06-01", "2017-05-10", "2017-05-01", "2017-03-01", "2016-09-01", "2016-07-01", "2016-06-01",
        "2016-02-01", "2015-11-01", "2015-01-01", "2014-04-01-preview", "2014-04-01", "2014-01-01", "2013-03-01",
        "2014-02-26", "2014-04");

    static final List<String> RESOURCE_GRAPH = List.of("2018-09-01-preview", "2019-04-01", "2020-04-01-preview",
        "2021-03-01", "2021-06-01-preview", "2022-10-01", "2024-04-01");
}
