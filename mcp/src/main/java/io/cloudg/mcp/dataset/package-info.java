/**
 * Datasets: what live tools saved, one directory each ({@code dataset.json}, {@code inventory-map.json},
 * {@code findings.json}), written into a staging directory and renamed into place so a reader never sees
 * half a dataset. Reading one never touches a cloud; assets stream from the map file one at a time.
 */
package io.cloudg.mcp.dataset;
