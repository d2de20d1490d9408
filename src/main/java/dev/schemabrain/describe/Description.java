package dev.schemabrain.describe;

import java.util.Objects;

/** One sentence about a table or column, with where it came from. */
public record Description(String text, DescriptionOrigin origin) {

    public Description {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(origin, "origin");
    }
}
