package dev.schemabrain.engine;

/** Told after each table's samples are read, so a terminal can show a progress bar. */
@FunctionalInterface
public interface SamplingProgress {

    SamplingProgress NONE = (done, total) -> {
    };

    void sampled(int done, int total);
}
