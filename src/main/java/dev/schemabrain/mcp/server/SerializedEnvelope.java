package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;

import java.io.IOException;

/**
 * An answer's structuredContent as the JSON text already made for its content[0].text: the response writes these
 * characters as they are, so the envelope is serialised once per answer instead of twice. The tree stays for the
 * output check, which reads keys and never serialises.
 */
public record SerializedEnvelope(JsonNode tree, String json) implements JsonSerializable {

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeRawValue(json);
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer) throws IOException {
        serialize(gen, serializers);
    }

    @Override
    public String toString() {
        return json;
    }
}
