package io.cloudg.aws;

import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.SdkClient;

/**
 * One account's use of a shared SDK client (see {@link AwsClients}): the client, and the request override
 * that makes a call that account's: its credentials provider and the {@link GovernedAwsCalls#ACCOUNT}
 * attribute the governor takes its scope from. Every request given to {@link #client()} MUST carry
 * {@link #override()} (built with it, or passed through {@link #as}); one that does not fails before it is
 * sent (the shared client has no credentials of its own), never runs as another account. A paginator keeps
 * its first request's override on every page.
 *
 * <p>Not a dynamic proxy over the client interface: generating one for {@code Ec2Client} (about 2,000
 * methods) loads every model class its signatures name and costs seconds of CPU per process.
 */
public final class AccountClient<C extends SdkClient> {
    /** The shared clients' own credentials: none. A request that reached one without an account fails here. */
    static final AwsCredentialsProvider NO_ACCOUNT = new AwsCredentialsProvider() {
        @Override
        public AwsCredentials resolveCredentials() {
            throw new IllegalStateException("an AWS call without an account's request override: requests to cloudg's "
                    + "shared clients go through AccountClient");
        }

        @Override
        public String toString() {
            return "no account (cloudg's shared client)";
        }
    };

    private final C client;
    private final AwsAccount account;
    private final AwsRequestOverrideConfiguration override;

    AccountClient(C client, AwsAccount account) {
        this.client = Objects.requireNonNull(client);
        this.account = Objects.requireNonNull(account);
        this.override = overrideFor(account, AwsRequestOverrideConfiguration.builder());
    }

    /** The service's shared client in this region: give it only requests made with {@link #override()}. */
    public C client() {
        return client;
    }

    public AwsAccount account() {
        return account;
    }

    /** What makes a request this account's (for request builders: {@code r -> r.overrideConfiguration(ac.override())}). */
    public AwsRequestOverrideConfiguration override() {
        return override;
    }

    /** {@code request} made as this account, whatever it already overrides (a timeout) kept. */
    @SuppressWarnings("unchecked")
    public <R extends AwsRequest> R as(R request) {
        AwsRequestOverrideConfiguration o = request.overrideConfiguration()
                .map(existing -> overrideFor(account, existing.toBuilder())).orElse(override);
        return (R) request.toBuilder().overrideConfiguration(o).build();
    }

    private static AwsRequestOverrideConfiguration overrideFor(AwsAccount account, AwsRequestOverrideConfiguration.Builder b) {
        return b.credentialsProvider(account.credentials()).putExecutionAttribute(GovernedAwsCalls.ACCOUNT, account.id())
                .build();
    }

    @Override
    public String toString() {
        return client.serviceName() + " as " + account;
    }
}
