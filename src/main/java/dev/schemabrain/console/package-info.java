/**
 * The reviewer's console: a web page over the store where reviewers review draft metrics (their assumptions,
 * compiled SQL and a real answer), read the audit chain, review the PII tags and data subjects (written to the PII
 * policy file) and see what each role reaches. On loopback one person signs in with a printed one-time token
 * ({@link dev.schemabrain.console.Console}); beside /mcp a team signs in with its credentials
 * ({@link dev.schemabrain.console.TeamConsole}). It depends on the store, the semantic layer, the audit log, the MCP
 * tools, the policy package, the access policy and the authentication; only the CLI imports it.
 */
package dev.schemabrain.console;
