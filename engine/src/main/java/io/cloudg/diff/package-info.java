/**
 * {@code cloudg diff}: what changed between two runs. Each side ({@link io.cloudg.diff.DiffSide}) streams its
 * assets in one order ({@link io.cloudg.diff.AssetOrder}, PostgreSQL's {@code COLLATE "C"}): a map file is
 * sorted by an external merge sort ({@link io.cloudg.diff.SortedAssets}, bounded memory), a run in PostgreSQL
 * comes sorted from the server. {@link io.cloudg.diff.MapDiff} merges the two streams (added, removed, changed
 * with the fields) and compares coverage entries (worse, better, appeared, disappeared);
 * {@link io.cloudg.diff.DiffReport} keeps the changes on disk and writes them as text or JSON.
 */
package io.cloudg.diff;
