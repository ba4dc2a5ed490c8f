package io.cloudg;

import io.cloudg.resilience.Governor;
import io.cloudg.resilience.spi.EstateKeyed;
import io.cloudg.run.EstateKeys;
import io.cloudg.run.TaskTarget;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which estate a provider's calls go to, as the key of what the governor learned about it:
 * {@code <provider>:<identity>@<endpoint>}. The identity is what owns the accounts: AWS's management account
 * (the caller of the configured credentials, as discovery found it), Azure's tenant, GCP's organization
 * (else its configured projects); the endpoint is the configured {@code endpoint_url} (a simulator, a
 * private endpoint), or the provider's name for its public cloud. So a simulator whose account ids equal a
 * real organization's, or two simulators on different addresses, never share a learned rate; two maps of
 * one organization do.
 */
public final class Estates {
    private Estates() {
    }

    /**
     * The estate of {@code provider} in {@code config}, with what its discovery found ({@code facts}: AWS's
     * {@link TaskTarget#MANAGEMENT_ACCOUNT}); null when it cannot be told (AWS before discovery).
     */
    public static String key(String provider, CloudGConfig config, Map<String, String> facts) {
        return switch (provider) {
            case "aws" -> {
                String management = facts == null ? null : facts.get(TaskTarget.MANAGEMENT_ACCOUNT);
                yield management == null ? null : EstateKeys.aws(management, config.aws().endpointUrl());
            }
            case "azure" -> EstateKeys.of("azure", config.azure().tenantId() != null ? "tenant/" + config.azure().tenantId()
                    : "tenant/default", EstateKeys.endpoint(config.azure().endpointUrl()));
            case "gcp" -> EstateKeys.of("gcp", config.gcp().organization() != null ? "organization/" + config.gcp().organization()
                    : projects(config.gcp().projects()), config.gcp().endpointUrl());
            default -> null;
        };
    }

    /** A projects-only GCP estate: its projects, or a digest of them when they are many. */
    private static String projects(List<String> projects) {
        List<String> sorted = new ArrayList<>(projects);
        sorted.sort(null);
        String all = String.join(",", sorted);
        if (all.length() <= 120) {
            return "projects/" + all;
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(all.getBytes(StandardCharsets.UTF_8));
            return "projects/" + sorted.size() + "-" + HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What the run block says of the learned state the run used ({@code learned_rates}): where it is (the
     * {@code file}, or {@code redis}: its address and key prefix) and, per provider, the estate and how many
     * leaves started below their ceiling from it; null when the governor keeps nothing between runs.
     */
    public static Map<String, Object> runBlock(Governor governor) {
        return EstateKeyed.in(governor.store()).map(l -> {
            Map<String, Object> block = new LinkedHashMap<>(l.location());
            List<Map<String, Object>> estates = new ArrayList<>();
            for (EstateKeyed.EstateUse u : l.uses()) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("provider", u.provider());
                e.put("estate", u.estate());
                e.put("restored", u.restored());
                estates.add(e);
            }
            block.put("estates", estates);
            return block;
        }).orElse(null);
    }
}
