package dev.schemabrain.sql.guard;

/** What checking one SQL text gives: a bound SELECT or a refusal with its reason. */
public sealed interface GuardResult permits BoundSelect, Refusal {
}
