/**
 * Who may see what: the access policy's roles, a caller's identity with the role and claims
 * its credential carries, and the {@link dev.schemabrain.access.Access} every tool consults. Depends on the
 * catalog model only; the edge resolves an Access per call, the tools enforce it.
 */
package dev.schemabrain.access;
