/**
 * The operator's policy files as commands and the console use them: the PII policy ({@code pii_policy.yaml}) written
 * and applied to the store, and what a role of the access policy reaches. {@code schemabrain policy} and the
 * reviewer's console both go through here, so a tag set in either is written and applied the same way.
 */
package dev.schemabrain.policy;
