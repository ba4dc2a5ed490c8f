/**
 * Throughput of cloud-sim: {@link io.cloudg.bench.sim.SimThroughput} starts a simulator with quotas on
 * over a generated estate and drives it with {@link io.cloudg.bench.sim.RawHttpLoad}: keep-alive
 * HTTP/1.1 connections replaying pre-built requests shaped exactly as the AWS SDK and Azure SDK send them
 * (SigV4 credential scopes for many accounts and regions, EC2/awsQuery forms, awsJson targets, REST GETs,
 * ARM bearer calls). A raw client keeps the load generator cheap, so the two cores measure the simulator
 * rather than SDK marshalling. Every answer is read in full and counted by status.
 *
 * <p>{@link io.cloudg.bench.sim.SimScale} measures a simulator of a very large organization (1,000 accounts x
 * 17 regions by default): its start time (wall and CPU), its heap after start, after every account x region
 * was listed and after the ground truth was served.
 */
package io.cloudg.bench.sim;
