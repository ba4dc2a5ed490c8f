/**
 * Security checks over collected assets: S3 buckets open to the public, security groups open to
 * 0.0.0.0/0 on SSH or RDP, IAM users without MFA. Checks read only the attributes collectors stored
 * ({@code AwsCatalog}'s per-item details), so they run the same over a fresh collection and over a saved
 * dataset, and they answer "unknown" (never "pass") when an attribute is missing.
 */
package io.cloudg.mcp.scan;
