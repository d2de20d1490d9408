/**
 * The reviewer's console: a loopback web page over the store where one person reviews draft metrics (their
 * assumptions, compiled SQL and a real answer), reads the audit chain and the PII tags. It depends on the store,
 * the semantic layer, the audit log and the MCP tools; nothing else imports it.
 */
package dev.schemabrain.console;
