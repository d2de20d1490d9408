package dev.schemabrain.mcp.args;

/** The example schemas of seed 001, verbatim. */
final class SeedSchemas {

    static final String DIRECT = """
            { "q": { "type": "string", "required": true, "minLength": 3, "maxLength": 64 },
              "limit": { "type": "integer", "minimum": 1, "maximum": 100 },
              "tags": { "type": "string", "isArray": true, "minLength": 2 },
              "scores": { "type": "float", "isArray": true, "minimum": 0, "maximum": 1 },
              "mode": { "type": "enum", "enum": ["fast", "accurate"] } }
            """;

    static final String JSON_SCHEMA_LIKE = """
            {
              "properties": {
                "q": { "type": "string", "minLength": 3, "maxLength": 64 },
                "limit": { "type": "integer", "minimum": 1, "maximum": 100 },
                "tags": {
                  "type": "array",
                  "items": { "type": "string", "minLength": 2 }
                },
                "scores": {
                  "type": "array",
                  "items": { "type": "number", "minimum": 0, "maximum": 1 }
                },
                "mode": { "type": "enum", "enum": ["fast", "accurate"] }
              },
              "required": ["q"]
            }
            """;

    static final String LEVELS = """
            {
              "properties": {
                "levels": {
                  "type": "array",
                  "items": { "type": "integer" },
                  "enum": [1, 2, 3]
                }
              }
            }
            """;

    static final String IS_ARRAY = """
            {
              "properties": {
                "names": {
                  "type": "string",
                  "isArray": true,
                  "minLength": 1,
                  "maxLength": 20
                },
                "thresholds": {
                  "type": "float",
                  "isArray": true,
                  "minimum": 0.1,
                  "maximum": 0.9
                }
              },
              "required": ["names"]
            }
            """;

    private SeedSchemas() {
    }
}
