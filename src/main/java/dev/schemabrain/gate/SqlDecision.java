package dev.schemabrain.gate;

/** What the SQL gate decides for one statement: the plan that may run, or the refusal. */
public sealed interface SqlDecision permits SqlGate.Plan, SqlRefusal {
}
