package io.cloudg.aws;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * One AWS account to map and the credentials to use in it.
 *
 * @param id the 12-digit account id
 * @param name the account's name in the organization, or null
 * @param credentials the management account's own credentials, or a role assumed in a member account
 * @param management whether this is the account cloudg started from
 */
public record AwsAccount(String id, String name, AwsCredentialsProvider credentials, boolean management) {
    @Override
    public String toString() {
        return id + (name == null ? "" : " (" + name + ")");
    }
}
