package dev.schemabrain.mcp.tools;

import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * get_metric's request arguments (everything but {@code name} and {@code dry_run}): their declaration and
 * how validated arguments become a {@link MetricRequest}. A metric test's {@code request} is exactly what an
 * agent would pass get_metric, so both read it through this one declaration.
 */
public final class MetricArguments {

    /** The declaration, in get_metric's order and words; {@code limit} defaults as get_metric's does. */
    public static final ArgSchema SCHEMA = ArgSchema.parse("""
            {
              "group_by": {"type": "string", "isArray": true, "minLength": 1, "maxLength": 512, "description": "entity.column references."},
              "filters": {"type": "array", "maxItems": 100, "description": "All must hold.", "items": {
                "type": "object",
                "properties": {
                  "column": {"type": "string", "minLength": 1, "maxLength": 512, "description": "entity.column."},
                  "op": {"type": "enum", "enum": ["eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "is_null", "not_null"]},
                  "value": {"type": "scalars", "description": "A list for in and not_in; none for is_null and not_null."},
                  "other_column": {"type": "string", "minLength": 1, "maxLength": 512, "description": "entity.column, instead of value."}
                },
                "required": ["column", "op"]}},
              "segments": {"type": "string", "isArray": true, "minLength": 1, "maxLength": 512, "description": "Named filters (describe_entity)."},
              "default_segments": {"type": "boolean", "default": true, "description": "false: no default segment."},
              "time_grain": {"type": "string", "minLength": 1, "maxLength": 512, "description": "day, week, month, quarter or year."},
              "time_dimension": {"type": "string", "minLength": 1, "maxLength": 512, "description": "entity.column of the time axis."},
              "via": {"type": "string", "isArray": true, "minLength": 1, "maxLength": 512, "description": "Join names that pick a path."},
              "order_by": {"type": "array", "maxItems": 32, "description": "First term first.", "items": {
                "type": "object",
                "properties": {
                  "column": {"type": "string", "minLength": 1, "maxLength": 512, "description": "A group_by reference, time_bucket or the metric."},
                  "direction": {"type": "enum", "enum": ["asc", "desc"], "default": "asc"}
                },
                "required": ["column"]}},
              "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 1000}
            }""");

    private MetricArguments() {
    }

    /**
     * The request for {@code metric} from arguments validated against a schema that declares every argument of
     * {@link #SCHEMA}: the declaration has checked each field, the compiler checks the references.
     */
    public static MetricRequest request(String metric, Arguments arguments) {
        List<Filter> filters = new ArrayList<>();
        for (Map<String, Object> f : arguments.objectList("filters")) {
            FilterOp op = FilterOp.fromWire((String) f.get("op"));
            Object other = f.get("other_column");
            filters.add(other instanceof String column && f.get("value") == null && op.comparesColumns()
                    ? Filter.columns((String) f.get("column"), op, column)
                    : new Filter((String) f.get("column"), op, f.get("value")));
        }
        List<MetricRequest.OrderBy> order = new ArrayList<>();
        for (Map<String, Object> o : arguments.objectList("order_by")) {
            order.add(new MetricRequest.OrderBy((String) o.get("column"), "desc".equals(o.get("direction"))));
        }
        return new MetricRequest(metric, arguments.stringList("group_by"), filters, arguments.string("time_grain").orElse(null),
                arguments.string("time_dimension").orElse(null), arguments.stringList("via"), order, arguments.integer("limit"),
                arguments.stringList("segments"), arguments.bool("default_segments"));
    }
}
