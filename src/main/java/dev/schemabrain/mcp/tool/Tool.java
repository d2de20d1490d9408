package dev.schemabrain.mcp.tool;

import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;

/**
 * One agent-facing tool. Adding a tool is one class implementing this plus its registration in
 * {@link ToolRegistry}: the registry validates arguments against {@link ToolSpec#arguments()} before
 * {@link #call} runs and turns any exception into an internal_error envelope.
 */
public interface Tool {

    ToolSpec spec();

    /**
     * Answers a call whose arguments already passed validation (defaults applied). A tool that sends SQL
     * calls {@link ToolCall#beforeSql} first.
     */
    Envelope call(Arguments arguments, ToolCall call);
}
