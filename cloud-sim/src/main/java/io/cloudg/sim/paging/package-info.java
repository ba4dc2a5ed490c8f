/**
 * Paging shared by the AWS, Azure and GCP front ends.
 *
 * <p>{@link io.cloudg.sim.paging.Pager} decides how many items each page carries (full pages in lenient;
 * in strict, seeded short and empty pages that still carry a next token, as real services answer) and what
 * the token says. Opaque tokens are sealed cursors (the ordinal of the last item returned, HMAC-tagged and
 * encrypted with a key from the seed): they cannot be read or edited, another listing refuses them, and
 * resources created or deleted between two pages neither shift nor repeat the others. Offset tokens are
 * plain offsets, as the lenient profile has always served. A bad token is a
 * {@link io.cloudg.sim.paging.BadPageToken}, which each front end answers in its own error shape.
 */
package io.cloudg.sim.paging;
