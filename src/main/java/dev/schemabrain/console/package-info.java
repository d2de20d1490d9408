/**
 * The reviewer's console: a loopback web page over the store where one person reviews draft metrics (their
 * assumptions, compiled SQL and a real answer), reads the audit chain, reviews the PII tags and data subjects
 * (written to the PII policy file) and shows what each role reaches. It depends on the store, the semantic layer, the
 * audit log, the MCP tools and the policy package; nothing else imports it.
 */
package dev.schemabrain.console;
