/**
 * The serving core's gates: the rules that decide what an agent's request may do, written in the product's own terms
 * and returning decisions (a plan, or a refusal with its kind, sentence and hint) that the MCP tools only turn into
 * envelopes. SqlGate decides agent SQL (the guard's bind, access, disclosure by lineage, small groups) and SqlRewrite
 * writes the statement that runs.
 */
package dev.schemabrain.gate;
