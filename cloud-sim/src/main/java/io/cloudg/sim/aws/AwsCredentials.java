package io.cloudg.sim.aws;

/**
 * Credentials for the simulator. Any key the simulator's STS did not issue acts as the management
 * account, so these are only a convenient, printable default ({@code test}/{@code test} works too).
 */
public record AwsCredentials(String accessKeyId, String secretAccessKey, String sessionToken, String accountId) {
}
